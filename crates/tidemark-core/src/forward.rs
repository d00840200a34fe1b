//! A macro that implements a trait for `&T`, `Arc<T>` and `Box<T>` by forwarding to `T`.

/// Stamp the given trait items into impls for `&T`, `Arc<T>` and `Box<T>`; the items call through `(**self)`.
macro_rules! forward {
    (impl $trait:ident { $($item:tt)* }) => {
        impl<T: $trait + ?Sized> $trait for &T { $($item)* }
        impl<T: $trait + ?Sized> $trait for ::std::sync::Arc<T> { $($item)* }
        impl<T: $trait + ?Sized> $trait for ::std::boxed::Box<T> { $($item)* }
    };
}

pub(crate) use forward;
