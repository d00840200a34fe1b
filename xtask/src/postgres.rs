//! A throwaway PostgreSQL server for the PostgreSQL tests: started in a fresh temporary directory,
//! listening on a free loopback port, and stopped and deleted again when the [`Server`] is dropped.
//!
//! The server binaries are found with `pg_config`, in Debian's `/usr/lib/postgresql/<version>/bin`,
//! or on `PATH`; when there are none and this runs as root on a machine with apt, Debian's
//! `postgresql` package is installed first. `initdb` refuses to run as root, so as root every
//! server command runs as an unprivileged user through `runuser`.

use std::ffi::OsStr;
use std::fs::DirBuilder;
use std::net::{Ipv4Addr, TcpListener};
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::util::{describe, describe_status, succeeds_quietly};

/// The role that `initdb` creates as the superuser, and that the tests connect as.
const ROLE: &str = "tidemark";

/// The database created for the tests.
const DATABASE: &str = "tidemark_test";

/// Debian's directory holding one `<version>/bin` per installed server version.
const DEBIAN_LIB_DIR: &str = "/usr/lib/postgresql";

/// The system user created to run the server as when running as root and there is no `postgres` user.
const FALLBACK_USER: &str = "tidemark-pg";

/// The server binaries a directory must hold to be usable.
const SERVER_BINARIES: [&str; 3] = ["initdb", "pg_ctl", "postgres"];

/// How many lines of a failing command's output an error message quotes.
const TAIL_LINES: usize = 20;

/// How many times the server is started on a fresh port when the chosen one was taken meanwhile.
const START_ATTEMPTS: u32 = 3;

/// Environment variables of libpq and the server that must not steer the throwaway server.
const PG_ENVIRONMENT: [&str; 6] = ["PGDATA", "PGHOST", "PGPORT", "PGUSER", "PGDATABASE", "PGOPTIONS"];

/// A running throwaway server; dropping it stops the server and deletes its directory.
pub(crate) struct Server {
    /// The connection URL of the test database.
    url: String,
    /// The server version, such as `15.18`.
    version: String,
    /// The loopback TCP port the server listens on.
    port: u16,
    /// The directory holding everything: the cluster in `data/`, `server.log` and the Unix socket.
    dir: PathBuf,
    /// The directory holding `initdb`, `pg_ctl` and `postgres`.
    bin: PathBuf,
    /// The unprivileged user the server runs as when this process is root; `None` runs it as ourselves.
    user: Option<String>,
    /// Whether `pg_ctl start` was run, so that dropping has a server to stop.
    started: bool,
}

impl Server {
    /// The connection URL of the test database, such as `postgres://tidemark@127.0.0.1:5433/tidemark_test`.
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// The server version, such as `15.18`.
    pub(crate) fn version(&self) -> &str {
        &self.version
    }

    /// The loopback TCP port the server listens on.
    pub(crate) fn port(&self) -> u16 {
        self.port
    }

    /// The cluster directory inside the server's directory.
    fn data_dir(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// The server log, which pg_ctl appends to.
    fn log_file(&self) -> PathBuf {
        self.dir.join("server.log")
    }

    /// Builds a command running one of the server's programs, as the unprivileged user when there is one.
    fn command(&self, program: impl AsRef<OsStr>) -> Command {
        let mut command = match &self.user {
            Some(user) => {
                let mut command = Command::new("runuser");
                command.args(["-u", user, "--"]).arg(program);
                command
            }
            None => Command::new(program),
        };
        // The unprivileged user may not be allowed into our working directory (root's home, say);
        // the server's own directory is always open to it.
        command.current_dir(&self.dir);
        for name in PG_ENVIRONMENT {
            command.env_remove(name);
        }
        command
    }

    /// Builds a command running a binary from the server's bin directory.
    fn bin_command(&self, name: &str) -> Command {
        self.command(self.bin.join(name))
    }

    /// Creates the cluster with `initdb`: superuser `tidemark`, no passwords, UTF-8, C locale.
    fn init(&self) -> Result<(), String> {
        let mut initdb = self.bin_command("initdb");
        initdb.arg("-D").arg(self.data_dir()).args([
            "-U",
            ROLE,
            "--auth=trust",
            "--encoding=UTF8",
            "--no-locale",
            "--no-sync",
        ]);
        run_captured(&mut initdb).map(drop)
    }

    /// Starts the server on a free loopback port, trying a fresh port if the chosen one was taken meanwhile.
    fn start_server(&mut self) -> Result<(), String> {
        let mut attempt = 1;
        loop {
            self.port = free_port()?;
            let mut pg_ctl = self.bin_command("pg_ctl");
            pg_ctl
                .arg("-D")
                .arg(self.data_dir())
                .arg("-l")
                .arg(self.log_file())
                .arg("-o")
                .arg(server_options(self.port, &self.dir))
                .args(["-w", "-t", "60", "start"]);
            self.started = true;
            match run_captured(&mut pg_ctl) {
                Ok(_) => return Ok(()),
                Err(error) => {
                    let log = std::fs::read_to_string(self.log_file()).unwrap_or_default();
                    let port_taken = log.contains("could not bind") || log.contains("already in use");
                    if !port_taken || attempt >= START_ATTEMPTS {
                        return Err(format!(
                            "{error}\n--- end of {}:\n{}",
                            self.log_file().display(),
                            tail(&log)
                        ));
                    }
                    attempt += 1;
                    // A failed start leaves no server, but a timed-out one may still come up: stop it to be sure.
                    self.stop();
                    std::fs::write(self.log_file(), "").ok();
                }
            }
        }
    }

    /// Creates the test database with `createdb` over TCP.
    fn create_database(&self) -> Result<(), String> {
        let createdb = self.bin.join("createdb");
        let program = if createdb.is_file() { createdb.into_os_string() } else { "createdb".into() };
        let mut command = self.command(program);
        command.args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", ROLE, DATABASE]);
        run_captured(&mut command).map(drop)
    }

    /// Stops the server quietly: fast shutdown first, immediate shutdown if that does not finish.
    fn stop(&self) {
        for mode in ["fast", "immediate"] {
            let mut pg_ctl = self.bin_command("pg_ctl");
            pg_ctl.arg("-D").arg(self.data_dir()).args(["-m", mode, "-w", "-t", "30", "stop"]);
            if succeeds_quietly(&mut pg_ctl) {
                return;
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.started {
            self.stop();
        }
        // Root may delete the unprivileged user's files; a directory that refuses to go is left behind
        // in the temporary directory rather than failing the run.
        std::fs::remove_dir_all(&self.dir).ok();
    }
}

/// Starts a throwaway server with an empty `tidemark_test` database and returns it running.
///
/// The error is one line saying why there is no server (PostgreSQL missing and not installable),
/// or the failing command with its exit status and the end of its output and of the server log.
pub(crate) fn start() -> Result<Server, String> {
    let root = is_root();
    let bin = match find_bin_dir() {
        Some(bin) => bin,
        None => {
            install(root)?;
            find_bin_dir()
                .ok_or("PostgreSQL was installed with apt-get, but its server binaries were not found")?
        }
    };
    let version = server_version(&bin)?;
    let user = if root { Some(unprivileged_user()?) } else { None };

    let dir = unique_dir();
    DirBuilder::new()
        .mode(0o700)
        .create(&dir)
        .map_err(|error| format!("could not create {}: {error}", dir.display()))?;
    // From here on dropping the server deletes the directory, so every early return cleans up.
    let mut server = Server { url: String::new(), version, port: 0, dir, bin, user, started: false };
    if let Some(user) = &server.user {
        let mut chown = Command::new("chown");
        chown.arg(user).arg(&server.dir);
        run_captured(&mut chown)?;
    }
    server.init()?;
    server.start_server()?;
    server.create_database()?;
    server.url = url(server.port);
    Ok(server)
}

/// The connection URL of the test database on a loopback port.
fn url(port: u16) -> String {
    format!("postgres://{ROLE}@127.0.0.1:{port}/{DATABASE}")
}

/// The options pg_ctl hands to the server: loopback TCP on `port`, the Unix socket in `dir`,
/// durability off (the data is thrown away) and room for many parallel tests.
///
/// pg_ctl passes them through a shell, so the directory is single-quoted.
fn server_options(port: u16, dir: &Path) -> String {
    format!(
        "-c listen_addresses=127.0.0.1 -p {port} -k {} -c fsync=off -c full_page_writes=off \
         -c synchronous_commit=off -c max_connections=200",
        shell_quote(&dir.to_string_lossy())
    )
}

/// Quotes a word for the POSIX shell.
fn shell_quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// A new directory path under the system's temporary directory, unique to this process and moment.
fn unique_dir() -> PathBuf {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_nanos());
    std::env::temp_dir().join(format!("tidemark-pg-{}-{nanos}", std::process::id()))
}

/// Asks the kernel for a free loopback port by binding port 0, then releases it for the server.
fn free_port() -> Result<u16, String> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .map_err(|error| format!("could not find a free port on 127.0.0.1: {error}"))?;
    listener
        .local_addr()
        .map(|addr| addr.port())
        .map_err(|error| format!("could not read the free port: {error}"))
}

/// Whether this process runs as root, going by `id -u`.
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .stderr(Stdio::null())
        .output()
        .is_ok_and(|output| output.status.success() && String::from_utf8_lossy(&output.stdout).trim() == "0")
}

/// Whether a user of that name exists.
fn user_exists(name: &str) -> bool {
    succeeds_quietly(Command::new("id").args(["-u", name]))
}

/// The user to run the server as when this process is root: Debian's `postgres` user if it exists,
/// otherwise a system user created for the purpose.
fn unprivileged_user() -> Result<String, String> {
    for name in ["postgres", FALLBACK_USER] {
        if user_exists(name) {
            return Ok(name.to_owned());
        }
    }
    let mut useradd = Command::new("useradd");
    useradd.args(["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", FALLBACK_USER]);
    run_captured(&mut useradd)
        .map_err(|error| format!("initdb cannot run as root and no user could be created for it: {error}"))?;
    Ok(FALLBACK_USER.to_owned())
}

/// Finds a directory holding the server binaries: `pg_config --bindir`, then the newest version
/// under `/usr/lib/postgresql`, then `PATH`.
fn find_bin_dir() -> Option<PathBuf> {
    from_pg_config().or_else(from_debian_lib_dir).or_else(from_path)
}

/// Whether a directory holds every server binary.
fn has_server_binaries(dir: &Path) -> bool {
    SERVER_BINARIES.iter().all(|name| dir.join(name).is_file())
}

/// The bin directory `pg_config` reports, if it holds the server (Debian's libpq-dev ships
/// `pg_config` without one).
fn from_pg_config() -> Option<PathBuf> {
    let output = Command::new("pg_config").arg("--bindir").stderr(Stdio::null()).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let dir = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
    has_server_binaries(&dir).then_some(dir)
}

/// The bin directory of the newest server version installed the Debian way.
fn from_debian_lib_dir() -> Option<PathBuf> {
    let names: Vec<String> = std::fs::read_dir(DEBIAN_LIB_DIR)
        .ok()?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .collect();
    newest_first(names)
        .into_iter()
        .map(|name| Path::new(DEBIAN_LIB_DIR).join(name).join("bin"))
        .find(|dir| has_server_binaries(dir))
}

/// Sorts version directory names newest first, comparing them as numbers (`10` after `9.6`);
/// names that are not versions are dropped.
fn newest_first(names: Vec<String>) -> Vec<String> {
    let mut versions: Vec<(Vec<u32>, String)> = names
        .into_iter()
        .filter_map(|name| {
            let parts: Result<Vec<u32>, _> = name.split('.').map(str::parse).collect();
            parts.ok().map(|parts| (parts, name))
        })
        .collect();
    versions.sort_by(|a, b| b.0.cmp(&a.0));
    versions.into_iter().map(|(_, name)| name).collect()
}

/// The directory of the server binaries found on `PATH`, following symbolic links to where they live.
fn from_path() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).find_map(|dir| {
        let initdb = dir.join("initdb");
        if !initdb.is_file() {
            return None;
        }
        let real = std::fs::canonicalize(&initdb).ok().and_then(|real| real.parent().map(Path::to_path_buf));
        real.filter(|real| has_server_binaries(real)).or_else(|| has_server_binaries(&dir).then_some(dir))
    })
}

/// Installs Debian's `postgresql` package, which only root can do and only where apt-get exists.
fn install(root: bool) -> Result<(), String> {
    if !root {
        return Err("PostgreSQL is not installed and cannot be installed here (not root)".to_owned());
    }
    if !succeeds_quietly(Command::new("apt-get").arg("--version")) {
        return Err("PostgreSQL is not installed and cannot be installed here (no apt-get)".to_owned());
    }
    println!("    PostgreSQL is not installed; installing Debian's postgresql package with apt-get");
    let mut update = Command::new("apt-get");
    update.args(["update", "-qq"]);
    let mut install = Command::new("apt-get");
    install.args(["install", "-y", "-qq", "--no-install-recommends", "postgresql"]);
    for command in [&mut update, &mut install] {
        command.env("DEBIAN_FRONTEND", "noninteractive");
        run_captured(command).map_err(|error| format!("PostgreSQL could not be installed: {error}"))?;
    }
    Ok(())
}

/// The version the server binary reports, such as `15.18`.
fn server_version(bin: &Path) -> Result<String, String> {
    let mut postgres = Command::new(bin.join("postgres"));
    postgres.arg("--version");
    let output = run_captured(&mut postgres)?;
    let text = String::from_utf8_lossy(&output.stdout);
    parse_version(&text)
        .map(str::to_owned)
        .ok_or_else(|| format!("`{}` printed no version: {}", describe(&postgres), text.trim()))
}

/// Reads the version out of `postgres --version`, whose output is like
/// `postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)`.
fn parse_version(text: &str) -> Option<&str> {
    let (_, rest) = text.split_once("(PostgreSQL)")?;
    rest.split_whitespace().next()
}

/// Runs a command with its output captured and turns a failure into an error naming the command,
/// its exit status and the end of what it printed.
fn run_captured(command: &mut Command) -> Result<Output, String> {
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|error| format!("could not start `{}`: {error}", describe(command)))?;
    if output.status.success() {
        return Ok(output);
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let printed = if stderr.trim().is_empty() { String::from_utf8_lossy(&output.stdout) } else { stderr };
    Err(format!("`{}` failed ({}):\n{}", describe(command), describe_status(output.status), tail(&printed)))
}

/// The last lines of a text, which is where a failing program says what went wrong.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    lines[lines.len().saturating_sub(TAIL_LINES)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newest_version_comes_first() {
        let names = ["9.6", "15", "lost+found", "10", "16", "13.2"].map(str::to_owned).to_vec();
        assert_eq!(newest_first(names), ["16", "15", "13.2", "10", "9.6"]);
    }

    #[test]
    fn no_version_directories_means_nothing() {
        assert!(newest_first(vec!["bin".to_owned(), String::new()]).is_empty());
    }

    #[test]
    fn only_root_installs() {
        let error = install(false).expect_err("installing needs root");
        assert_eq!(error, "PostgreSQL is not installed and cannot be installed here (not root)");
    }

    #[test]
    fn url_names_role_port_and_database() {
        assert_eq!(url(54321), "postgres://tidemark@127.0.0.1:54321/tidemark_test");
    }

    #[test]
    fn version_is_read_from_postgres_version() {
        assert_eq!(parse_version("postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)\n"), Some("15.18"));
        assert_eq!(parse_version("postgres (PostgreSQL) 17.2\n"), Some("17.2"));
        assert_eq!(parse_version("something else"), None);
    }

    #[test]
    fn server_options_listen_on_loopback_only() {
        let options = server_options(5433, Path::new("/tmp/it's here"));
        assert!(options.starts_with("-c listen_addresses=127.0.0.1 -p 5433 -k '/tmp/it'\\''s here' "));
        assert!(options.contains("-c fsync=off"));
        assert!(options.ends_with("-c max_connections=200"));
    }

    #[test]
    fn tail_keeps_the_last_lines() {
        let text: String = (1..=30).map(|n| format!("line {n}\n")).collect();
        let kept = tail(&text);
        assert!(kept.starts_with("line 11\n"));
        assert!(kept.ends_with("line 30"));
        assert_eq!(tail(""), "");
    }

    #[test]
    fn unique_dirs_live_in_the_temporary_directory() {
        let dir = unique_dir();
        assert!(dir.starts_with(std::env::temp_dir()));
        let name = dir.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        assert!(name.starts_with(&format!("tidemark-pg-{}-", std::process::id())));
    }
}
