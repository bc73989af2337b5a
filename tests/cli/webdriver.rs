//! A WebDriver client for the page's browser test: Chromium driven through `chromedriver`
//! (Debian's `chromium` and `chromium-driver`), over plain HTTP on the loopback, so the test
//! needs no client library.

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A browser session: the driver process and the session it serves.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
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

/// Whether the browser tests must run (`.ci/run` sets `RICOCHET_LAB_BROWSER_TESTS=1`), so a
/// missing browser fails them rather than skipping them.
pub fn required() -> bool {
    std::env::var("RICOCHET_LAB_BROWSER_TESTS").is_ok_and(|v| v == "1")
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
            .unwrap();
        let mut browser = Browser {
            driver: child,
            port,
            session: String::new(),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium.to_str().unwrap(),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--hide-scrollbars",
                         format!("--window-size={width},{height}")],
            },
        }}});
        let created = browser.call("POST", "/session", Some(&capabilities));
        browser.session = created["sessionId"].as_str().unwrap().to_string();
        browser.command("POST", "timeouts", Some(&json!({"script": 300_000})));
        browser
    }

    /// One HTTP request to the driver; the answer's `value`, or a panic with the driver's
    /// error.
    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let body = body.map_or_else(String::new, Value::to_string);
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json; \
             charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        )
        .unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).unwrap();
        let answer = String::from_utf8_lossy(&answer);
        let (head, rest) = answer.split_once("\r\n\r\n").unwrap();
        let text = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            unchunked(rest)
        } else {
            rest.to_string()
        };
        let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        let value = value["value"].clone();
        if let Some(error) = value.get("error") {
            panic!("WebDriver {method} {path}: {error}: {}", value["message"]);
        }
        value
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
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                self.call("DELETE", &path, None)
            }));
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// An HTTP body sent in chunks, joined.
fn unchunked(mut rest: &str) -> String {
    let mut body = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        body.push_str(&after[..size]);
        rest = after[size..].trim_start_matches("\r\n");
    }
    body
}
