//! The adapters' timer: Tokio's by default, injected through `with_sleep`, and a time limit that starts it only when needed.

use std::future::Future;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use tidemark_core::time::Sleep;

/// Tokio's timer, the default of the adapters that wait.
pub(crate) fn tokio_sleep() -> Sleep {
    Arc::new(|duration| Box::pin(tokio::time::sleep(duration)))
}

/// Run `work` for at most `limit` on `sleep`'s clock; `None` when the limit passed first.
///
/// The timer is started only if `work` is not ready when first polled, so
/// work that answers at once (an observer with nothing to say) never needs
/// a timer at all.
pub(crate) async fn within<F: Future>(sleep: &Sleep, limit: Duration, work: F) -> Option<F::Output> {
    let mut work = pin!(work);
    let mut timer: Option<Pin<Box<dyn Future<Output = ()> + Send>>> = None;
    std::future::poll_fn(|cx| {
        if let Poll::Ready(output) = work.as_mut().poll(cx) {
            return Poll::Ready(Some(output));
        }
        let timer = timer.get_or_insert_with(|| sleep(limit));
        timer.as_mut().poll(cx).map(|()| None)
    })
    .await
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    /// A timer that records each wait and completes at once.
    fn recording() -> (Sleep, Arc<Mutex<Vec<Duration>>>) {
        let waits = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&waits);
        let sleep: Sleep = Arc::new(move |duration| {
            recorded.lock().expect("lock").push(duration);
            Box::pin(async {})
        });
        (sleep, waits)
    }

    #[test]
    fn ready_work_never_starts_the_timer() {
        let (sleep, waits) = recording();
        let answer = futures::executor::block_on(within(&sleep, Duration::from_secs(2), async { 7 }));
        assert_eq!(answer, Some(7));
        assert!(waits.lock().expect("lock").is_empty());
    }

    #[test]
    fn pending_work_is_cut_off_by_the_timer() {
        let (sleep, waits) = recording();
        let answer =
            futures::executor::block_on(within(&sleep, Duration::from_secs(2), std::future::pending::<u8>()));
        assert_eq!(answer, None);
        assert_eq!(*waits.lock().expect("lock"), vec![Duration::from_secs(2)]);
    }

    #[tokio::test(start_paused = true)]
    async fn tokio_timer_limits_hanging_work() {
        let answer = within(&tokio_sleep(), Duration::from_secs(5), std::future::pending::<u8>()).await;
        assert_eq!(answer, None);
    }
}
