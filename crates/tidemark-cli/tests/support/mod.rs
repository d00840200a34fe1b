//! What the command-line tests over one store file share: running the binary against it.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Run `tidemark args` with `stdin` on its standard input and `store` as its store.
pub(crate) fn tidemark(args: &[&str], stdin: &[u8], store: &Path) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tidemark"))
        .args(args)
        .env("TIDEMARK_STORE", store)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(stdin);
    }
    child.wait_with_output().expect("the binary finishes")
}
