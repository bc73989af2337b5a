//! A WebDriver client for the page's browser test: Chromium driven through `chromedriver`
//! (Debian's `chromium` and `chromium-driver`), over plain HTTP on the loopback, so the test
//! needs no client library.
//!
//! Nothing here waits without a limit: every request has one, and the whole session has one,
//! so a browser that stops answering fails the test in time instead of hanging the run. The
//! driver answers `Connection: close` yet keeps the connection open, so an answer is read to
//! its length, never to the connection's end. Whatever way the test ends, the browser and the
//! driver are killed with it.

use serde_json::{Value, json};
use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The longest one request to the driver may take, a page script's run included.
const CALL_LIMIT: Duration = Duration::from_secs(60);
/// A page script's own limit, under a request's, so the driver reports it as a script error.
const SCRIPT_LIMIT: Duration = Duration::from_secs(45);
/// The longest a whole session may last, from the driver's start to the last request.
const SESSION_LIMIT: Duration = Duration::from_secs(100);
/// The time left to close the session when the test ends.
const CLOSE_LIMIT: Duration = Duration::from_secs(10);

/// A browser session: the driver process and the session it serves.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    deadline: Instant,
}

/// Where the driver and the browser are: `CHROMEDRIVER` and `CHROMIUM` when set, else the
/// paths Debian's packages install; `None` when either is missing.
pub fn installed() -> Option<(PathBuf, PathBuf)> {
    let find = |variable: &str, default: &str| {
        let path = std::env::var_os(variable).map_or_else(|| PathBuf::from(default), PathBuf::from);
        path.is_file().then_some(path)
    };
    Some((
        find("CHROMEDRIVER", "/usr/bin/chromedriver")?,
        find("CHROMIUM", "/usr/bin/chromium")?,
    ))
}

impl Browser {
    /// Starts the driver and a headless browser with a window of `width x height` pixels.
    pub fn start(driver: &Path, chromium: &Path, width: u32, height: u32) -> Browser {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .unwrap()
            .port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|error| panic!("{} did not start: {error}", driver.display()));
        // From here on, dropping `browser` (a panic included) kills the driver and the browser.
        let mut browser = Browser {
            driver: child,
            port,
            session: String::new(),
            deadline: Instant::now() + SESSION_LIMIT,
        };
        let ready = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(browser.address()).is_err() {
            if let Ok(Some(status)) = browser.driver.try_wait() {
                panic!("{} stopped at its start: {status}", driver.display());
            }
            assert!(
                Instant::now() < ready,
                "chromedriver did not listen within 30 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let mut chrome = json!({
            "binary": chromium.to_str().unwrap(),
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--hide-scrollbars",
                     "--no-first-run", "--no-default-browser-check",
                     format!("--window-size={width},{height}")],
        });
        // A headless window is at least 500 pixels wide: a phone's width is emulated instead,
        // as its screen (with touch) rather than a narrow window.
        if width < 500 {
            chrome["mobileEmulation"] =
                json!({"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2}});
        }
        let limit = SCRIPT_LIMIT.as_millis() as u64;
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "timeouts": {"script": limit, "pageLoad": limit, "implicit": 0},
            "goog:chromeOptions": chrome,
        }}});
        let created = browser.call("POST", "/session", Some(&capabilities));
        browser.session = created["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("the driver opened no session: {created}"))
            .to_string();
        browser
    }

    fn address(&self) -> SocketAddr {
        SocketAddr::from((Ipv4Addr::LOCALHOST, self.port))
    }

    /// One HTTP request to the driver; the answer's `value`, or a panic with the driver's
    /// error or with the limit that passed.
    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let now = Instant::now();
        let limit = self.deadline.saturating_duration_since(now).min(CALL_LIMIT);
        assert!(
            !limit.is_zero(),
            "the browser session passed its limit of {} s before {method} {path}",
            SESSION_LIMIT.as_secs()
        );
        let text = self
            .request(method, path, body, limit)
            .unwrap_or_else(|error| {
                panic!(
                    "WebDriver {method} {path}: no answer after {:.1} s (limit {:.0} s): {error}",
                    now.elapsed().as_secs_f64(),
                    limit.as_secs_f64()
                )
            });
        let value: Value = serde_json::from_slice(&text).unwrap_or(Value::Null);
        let value = value["value"].clone();
        if let Some(error) = value.get("error") {
            panic!("WebDriver {method} {path}: {error}: {}", value["message"]);
        }
        value
    }

    /// Sends one request and reads its answer's body, all within `limit`.
    fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        limit: Duration,
    ) -> io::Result<Vec<u8>> {
        let deadline = Instant::now() + limit;
        let body = body.map_or_else(String::new, Value::to_string);
        let mut stream = TcpStream::connect_timeout(&self.address(), limit)?;
        stream.set_write_timeout(Some(limit))?;
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json; \
             charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        )?;
        let mut answer = Vec::new();
        let mut buffer = [0; 1 << 16];
        loop {
            if let Some(body) = whole_body(&answer, false) {
                return Ok(body);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(io::ErrorKind::TimedOut.into());
            }
            stream.set_read_timeout(Some(left))?;
            let read = stream.read(&mut buffer)?;
            if read == 0 {
                return whole_body(&answer, true).ok_or_else(|| {
                    io::Error::new(io::ErrorKind::UnexpectedEof, "the answer was cut short")
                });
            }
            answer.extend_from_slice(&buffer[..read]);
        }
    }

    /// A command of the session (`url`, `execute/async`, ...).
    pub fn command(&self, method: &str, command: &str, body: Option<&Value>) -> Value {
        let path = format!("/session/{}/{command}", self.session);
        self.call(method, &path, body)
    }

    /// Opens a page.
    pub fn open(&self, url: &str) {
        self.command("POST", "url", Some(&json!({ "url": url })));
    }

    /// Runs `script` in the page as an async function body of `args`: it ends by calling
    /// `done(value)`, the last argument, and the value is returned.
    pub fn run(&self, script: &str, args: Value) -> Value {
        let body = json!({
            "script": format!("const done = arguments[arguments.length - 1]; {script}"),
            "args": args,
        });
        self.command("POST", "execute/async", Some(&body))
    }

    /// Clicks the element with `id`, as a pointer does.
    pub fn click(&self, id: &str) {
        let element = self.element(id);
        self.command(
            "POST",
            &format!("element/{element}/click"),
            Some(&json!({})),
        );
    }

    /// The driver's reference to the element with `id`.
    pub fn element(&self, id: &str) -> String {
        let found = self.command(
            "POST",
            "element",
            Some(&json!({"using": "css selector", "value": format!("#{id}")})),
        );
        let reference = found.as_object().and_then(|o| o.values().next()).unwrap();
        reference.as_str().unwrap().to_string()
    }

    /// Presses keys (WebDriver's key codes for special keys), one after another, into
    /// whatever has the focus, as a keyboard does.
    pub fn keys(&self, text: &str) {
        let presses: Vec<Value> = text
            .chars()
            .flat_map(|key| {
                let key = key.to_string();
                [
                    json!({"type": "keyDown", "value": key}),
                    json!({"type": "keyUp", "value": key}),
                ]
            })
            .collect();
        let body = json!({"actions": [{"type": "key", "id": "keyboard", "actions": presses}]});
        self.command("POST", "actions", Some(&body));
    }

    /// The window as a PNG.
    pub fn screenshot(&self) -> Vec<u8> {
        use base64::Engine;
        let text = self.command("GET", "screenshot", None);
        base64::engine::general_purpose::STANDARD
            .decode(text.as_str().unwrap())
            .unwrap()
    }
}

impl Drop for Browser {
    /// Closes the session, which quits the browser, then kills whatever is left of the browser
    /// and the driver, so that neither outlives the test, however it ended.
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = self.request("DELETE", &path, None, CLOSE_LIMIT);
        }
        for pid in descendants(self.driver.id()) {
            // SAFETY: `kill` only sends a signal, to a process this test started.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// The processes started by process `root`, its children's included, from `/proc`.
fn descendants(root: u32) -> Vec<i32> {
    let parents: Vec<(i32, i32)> = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(|entry| {
            let pid: i32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // The parent is the second field after the command's name, which ends in ')'.
            let after = &stat[stat.rfind(')')? + 1..];
            Some((pid, after.split_whitespace().nth(1)?.parse().ok()?))
        })
        .collect();
    let mut found = vec![root as i32];
    let mut at = 0;
    while at < found.len() {
        let parent = found[at];
        found.extend(parents.iter().filter(|p| p.1 == parent).map(|p| p.0));
        at += 1;
    }
    found.split_off(1)
}

/// An HTTP answer's body once `answer` holds all of it (`ended`: the connection was closed):
/// as long as its `Content-Length`, or its chunks up to the last, or all that came.
fn whole_body(answer: &[u8], ended: bool) -> Option<Vec<u8>> {
    let end = answer.windows(4).position(|w| w == b"\r\n\r\n")?;
    let (head, rest) = (String::from_utf8_lossy(&answer[..end]), &answer[end + 4..]);
    let field = |name: &str| {
        head.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.trim()
                .eq_ignore_ascii_case(name)
                .then(|| value.trim().to_string())
        })
    };
    if let Some(length) = field("content-length").and_then(|l| l.parse::<usize>().ok()) {
        return (rest.len() >= length).then(|| rest[..length].to_vec());
    }
    if field("transfer-encoding").is_some_and(|e| e.eq_ignore_ascii_case("chunked")) {
        return unchunked(rest);
    }
    ended.then(|| rest.to_vec())
}

/// An HTTP body sent in chunks, joined, once its last chunk is in.
fn unchunked(mut rest: &[u8]) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let line = rest.windows(2).position(|w| w == b"\r\n")?;
        let size = std::str::from_utf8(&rest[..line]).ok()?;
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        if size == 0 {
            return Some(body);
        }
        let data = rest.get(line + 2..line + 2 + size)?;
        body.extend_from_slice(data);
        rest = rest.get(line + 4 + size..)?;
    }
}
