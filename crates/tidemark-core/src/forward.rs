//! A macro that implements a trait for `&T`, `Arc<T>` and `Box<T>` by forwarding to `T`.

/// Stamp the given trait items into impls for `&T`, `Arc<T>` and `Box<T>`; the items call through `(**self)`.
///
/// Exported (hidden) so that the other tidemark crates forward their traits the same way.
#[macro_export]
#[doc(hidden)]
macro_rules! forward {
    (impl $trait:ident { $($item:tt)* }) => {
        impl<T: $trait + ?Sized> $trait for &T { $($item)* }
        impl<T: $trait + ?Sized> $trait for ::std::sync::Arc<T> { $($item)* }
        impl<T: $trait + ?Sized> $trait for ::std::boxed::Box<T> { $($item)* }
    };
}
