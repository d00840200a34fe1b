//! [`CalibratedCounter`]: any counter, its counts scaled by a calibration [`Ratio`] to what the provider counts.

use crate::calibration::Ratio;
use crate::message::Message;

use super::TokenCounter;

/// A counter whose every count is the inner counter's, scaled by a [`Ratio`] and rounded up.
///
/// It counts a prompt as the provider will, once the ratio was learned from
/// the provider's reports (see [`Calibration`](crate::calibration::Calibration)).
/// Every count is scaled on its own, [`count`](TokenCounter::count) and
/// [`prompt_overhead`](TokenCounter::prompt_overhead) alike, so
/// [`count_prompt`](TokenCounter::count_prompt) is the sum of the scaled
/// parts: the same sum a memory adapter fits when it scales the stored
/// counts of a window, and never less than the scaled count of the whole.
/// With [`Ratio::ONE`] every count is the inner counter's, and so is the name.
///
/// ```
/// use tidemark_core::calibration::Ratio;
/// use tidemark_core::counter::CalibratedCounter;
/// use tidemark_core::{HeuristicCounter, Message, TokenCounter};
///
/// let raw = HeuristicCounter::default();
/// let calibrated = CalibratedCounter::new(raw, Ratio::from_millionths(1_300_000));
/// let prompt = [Message::user("How many tokens does the provider see here?")];
/// let local = raw.count_prompt(&prompt);
/// assert_eq!(calibrated.count_prompt(&prompt), Ratio::from_millionths(1_300_000).scale(local));
/// assert_eq!(calibrated.name(), format!("{}*1.3", raw.name()));
/// assert_eq!(CalibratedCounter::new(raw, Ratio::ONE).count_prompt(&prompt), local);
/// ```
#[derive(Clone, Debug)]
pub struct CalibratedCounter<C> {
    inner: C,
    ratio: Ratio,
    name: String,
}

impl<C: TokenCounter> CalibratedCounter<C> {
    /// `inner`, its counts scaled by `ratio`.
    pub fn new(inner: C, ratio: Ratio) -> Self {
        let name =
            if ratio == Ratio::ONE { inner.name().to_owned() } else { format!("{}*{ratio}", inner.name()) };
        Self { inner, ratio, name }
    }
}

impl<C> CalibratedCounter<C> {
    /// The ratio counts are scaled by.
    pub fn ratio(&self) -> Ratio {
        self.ratio
    }

    /// The inner counter.
    pub fn get_ref(&self) -> &C {
        &self.inner
    }

    /// The inner counter, giving up the wrapper.
    pub fn into_inner(self) -> C {
        self.inner
    }
}

impl<C: TokenCounter> TokenCounter for CalibratedCounter<C> {
    fn name(&self) -> &str {
        &self.name
    }

    fn count_text(&self, text: &str) -> u32 {
        self.ratio.scale(self.inner.count_text(text))
    }

    fn count(&self, message: &Message) -> u32 {
        self.ratio.scale(self.inner.count(message))
    }

    fn prompt_overhead(&self) -> u32 {
        self.ratio.scale(self.inner.prompt_overhead())
    }
}
