//! [`Sleep`]: the timer a component waits on, injected rather than detected.
//!
//! Components that wait (a provider between retries, a memory for a hint or a
//! lease) take their timer as a value. Production code hands them Tokio's
//! timer; tests hand them a paused clock or a recorder; code that runs outside
//! Tokio hands them its own runtime's timer. Nothing checks at run time which
//! runtime happens to be current, so a component behaves the same wherever it
//! runs.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

/// A timer: returns a future that completes once `duration` has passed.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use std::time::Duration;
/// use tidemark_core::time::Sleep;
///
/// // A timer for tests: it records every wait and completes at once.
/// let waits = Arc::new(Mutex::new(Vec::new()));
/// let recorded = Arc::clone(&waits);
/// let sleep: Sleep = Arc::new(move |duration| {
///     recorded.lock().unwrap().push(duration);
///     Box::pin(async {})
/// });
/// futures::executor::block_on(sleep(Duration::from_secs(3)));
/// assert_eq!(*waits.lock().unwrap(), vec![Duration::from_secs(3)]);
/// ```
pub type Sleep = Arc<dyn Fn(Duration) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;
