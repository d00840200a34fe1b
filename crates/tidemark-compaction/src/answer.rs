//! Reading a summarizer's answer: what counts as a usable summary, a refusal, or an error worth another try.
//!
//! The rules live in [`tidemark_core::model::answer`], where the fact passes of
//! `tidemark-facts` share them; this module keeps the path this crate has
//! always offered.

pub use tidemark_core::model::answer::{is_transient, looks_like_refusal, read_answer};
