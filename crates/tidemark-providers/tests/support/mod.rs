//! What the HTTP model tests share: a server answering a scripted sequence, its request count, and a timer that records the waits instead of sleeping.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tidemark_providers::Sleep;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// Answers with the given responses in order, the last one for ever.
struct Sequence(Mutex<Vec<ResponseTemplate>>);

impl Respond for Sequence {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        let mut left = self.0.lock().expect("not poisoned");
        if left.len() > 1 { left.remove(0) } else { left[0].clone() }
    }
}

/// A server answering every POST with `responses` in turn.
pub(crate) async fn serving(responses: Vec<ResponseTemplate>) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST")).respond_with(Sequence(Mutex::new(responses))).mount(&server).await;
    server
}

/// How many requests `server` received.
pub(crate) async fn received(server: &MockServer) -> usize {
    server.received_requests().await.map_or(0, |requests| requests.len())
}

/// A timer that returns at once, and the waits it was asked for.
pub(crate) fn recording_sleep() -> (Sleep, Arc<Mutex<Vec<Duration>>>) {
    let waits = Arc::new(Mutex::new(Vec::new()));
    let recorded = Arc::clone(&waits);
    let sleep: Sleep = Arc::new(move |wait| {
        recorded.lock().expect("not poisoned").push(wait);
        Box::pin(async {})
    });
    (sleep, waits)
}
