//! The browser tests' set-up and their WebDriver client: Chromium found (or the test
//! skipped), one test at a time, chromedriver started, a server on a socket, and a
//! browser session driven over WebDriver (clicks, scripts, screenshots, the console).

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub type Res<T> = anyhow::Result<T>;

pub const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";
pub const DESKTOP: (u32, u32) = (1400, 1000);
pub const PHONE: (u32, u32) = (390, 844);

/// WebDriver's codes for the keys that type no character.
pub mod key {
    pub const TAB: &str = "\u{E004}";
    pub const ENTER: &str = "\u{E007}";
    pub const SHIFT: &str = "\u{E008}";
    pub const ESCAPE: &str = "\u{E00C}";
    pub const SPACE: &str = "\u{E00D}";
    pub const LEFT: &str = "\u{E012}";
    pub const UP: &str = "\u{E013}";
    pub const RIGHT: &str = "\u{E014}";
    pub const DOWN: &str = "\u{E015}";
}

/// Browser tests share the two cores badly: one at a time.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Each key of `keys` pressed and released in turn, as WebDriver key actions.
fn key_presses(keys: &str) -> Vec<Value> {
    keys.chars()
        .flat_map(|k| {
            let k = k.to_string();
            [
                json!({"type": "keyDown", "value": k}),
                json!({"type": "keyUp", "value": k}),
            ]
        })
        .collect()
}

fn find_program(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// The chromium and chromedriver binaries, or `None` (after saying so) to skip.
fn tools() -> Option<(PathBuf, PathBuf)> {
    let chromium = find_program(&["chromium", "chromium-browser"]);
    let driver = find_program(&["chromedriver"]);
    match (chromium, driver) {
        (Some(c), Some(d)) => Some((c, d)),
        _ => {
            super::skip::skip_unless_ci(
                "THE BROWSER TESTS",
                "chromium and chromedriver are not installed: \
                 apt-get install -y chromium chromium-driver",
            );
            None
        }
    }
}

/// A browser test's set-up, made once here: the browser tests run one at a time (they
/// share the two cores badly), each with a scratch folder (for its server's database)
/// and a chromedriver. Dropped, it closes the browsers still open and chromedriver,
/// removes the folder, and lets the next test start.
pub struct Bench {
    pub driver: Driver,
    pub dir: tempfile::TempDir,
    _one: tokio::sync::MutexGuard<'static, ()>,
}

/// The set-up of a browser test, or `None` (said loudly, and a failure under `CI`)
/// where Chromium or chromedriver is not installed.
pub async fn bench() -> Option<Bench> {
    let (chromium, driver) = tools()?;
    let one = ONE_AT_A_TIME.lock().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let driver = Driver::start(chromium, &driver)
        .await
        .expect("chromedriver");
    Some(Bench {
        driver,
        dir,
        _one: one,
    })
}

fn free_port() -> Res<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

/// The server under test, on 127.0.0.1:0 with a temporary SQLite database.
pub async fn start_server(dir: &Path) -> Res<SocketAddr> {
    serve(server::AppState::open(&sqlite_in(dir)).await?).await
}

/// A browser test's set-up with a server on SQLite in its folder: the bench and the
/// server's address (`http://127.0.0.1:PORT`); `None` as [`bench`] says.
pub async fn served() -> Option<(Bench, String)> {
    let bench = bench().await?;
    let addr = start_server(bench.dir.path()).await.expect("server");
    Some((bench, format!("http://{addr}")))
}

/// Asks `probe` every 100 ms until it answers `Ok`, and returns that; after `secs`,
/// fails with the words of its last `Err`.
pub async fn eventually<T, F: std::future::Future<Output = Result<T, String>>>(
    secs: u64,
    mut probe: impl FnMut() -> F,
) -> T {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    loop {
        match probe().await {
            Ok(done) => return done,
            Err(why) => assert!(std::time::Instant::now() < end, "{why}"),
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// The database of a server under test: SQLite in `dir`.
pub fn sqlite_in(dir: &Path) -> String {
    format!("sqlite://{}", dir.join("tables.sqlite").display())
}

/// Serves `state` on 127.0.0.1:0.
pub async fn serve(state: server::AppState) -> Res<SocketAddr> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        let _ = axum::serve(listener, server::app(state)).await;
    });
    Ok(addr)
}

/// A chromedriver process and the browsers it opened (closed when it is dropped).
pub struct Driver {
    child: Child,
    port: u16,
    sessions: std::sync::Mutex<Vec<String>>,
    base: String,
    chromium: PathBuf,
    http: reqwest::Client,
    profiles: tempfile::TempDir,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // Closes the browsers still open (a test that failed half-way), then chromedriver.
        let ids = std::mem::take(&mut *self.sessions.lock().unwrap_or_else(|e| e.into_inner()));
        for id in ids {
            delete_blocking(self.port, &format!("/session/{id}"));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `DELETE path` to chromedriver without an async runtime (for `Drop`).
fn delete_blocking(port: u16, path: &str) {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let _ = write!(
        stream,
        "DELETE {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
    );
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
}

impl Driver {
    async fn start(chromium: PathBuf, driver: &Path) -> Res<Driver> {
        let port = free_port()?;
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        let d = Driver {
            child,
            port,
            sessions: std::sync::Mutex::new(Vec::new()),
            base: format!("http://127.0.0.1:{port}"),
            chromium,
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()?,
            profiles: tempfile::tempdir()?,
        };
        for _ in 0..200 {
            if let Ok(r) = d.http.get(format!("{}/status", d.base)).send().await {
                if let Ok(v) = r.json::<Value>().await {
                    if v["value"]["ready"] == json!(true) {
                        return Ok(d);
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        anyhow::bail!("chromedriver did not start on port {port}")
    }

    /// A new browser with a fresh profile and a viewport of `size` (phone-like below 800).
    pub async fn session(&self, size: (u32, u32)) -> Res<Session> {
        let profile = tempfile::tempdir_in(self.profiles.path())?.keep();
        let mut args = vec![
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-dev-shm-usage".into(),
            "--hide-scrollbars".into(),
            format!("--user-data-dir={}", profile.display()),
        ];
        let mut options = json!({"binary": self.chromium, "args": []});
        if size.0 < 800 {
            options["mobileEmulation"] = json!({"deviceMetrics": {
                "width": size.0, "height": size.1, "pixelRatio": 2.0, "touch": true}});
        } else {
            args.push(format!("--window-size={},{}", size.0, size.1));
        }
        options["args"] = json!(args);
        // The console's messages are kept for `Session::console_errors`.
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": options,
            "goog:loggingPrefs": {"browser": "ALL"}}}});
        let r: Value = self
            .http
            .post(format!("{}/session", self.base))
            .json(&caps)
            .send()
            .await?
            .json()
            .await?;
        let id = r["value"]["sessionId"]
            .as_str()
            .ok_or_else(|| anyhow::anyhow!("no session: {r}"))?;
        self.sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(id.to_string());
        let s = Session {
            http: self.http.clone(),
            url: format!("{}/session/{id}", self.base),
        };
        if size.0 >= 800 {
            // The window is a little taller than its page: make the page the size asked.
            let inner = s
                .exec("return [window.innerWidth, window.innerHeight]", json!([]))
                .await?;
            let (w, h) = (
                inner[0].as_u64().unwrap_or(0),
                inner[1].as_u64().unwrap_or(0),
            );
            if (w, h) != (u64::from(size.0), u64::from(size.1)) && w > 0 {
                let dw = u64::from(size.0) + u64::from(size.0).saturating_sub(w);
                let dh = u64::from(size.1) + u64::from(size.1).saturating_sub(h);
                s.cmd("POST", "/window/rect", json!({"width": dw, "height": dh}))
                    .await?;
            }
        }
        Ok(s)
    }
}

/// One browser.
pub struct Session {
    http: reqwest::Client,
    url: String,
}

impl Session {
    pub async fn cmd(&self, method: &str, path: &str, body: Value) -> Res<Value> {
        let url = format!("{}{path}", self.url);
        let req = match method {
            "GET" => self.http.get(url),
            "DELETE" => self.http.delete(url),
            _ => self.http.post(url).json(&body),
        };
        let resp = req.send().await?;
        let ok = resp.status().is_success();
        let v: Value = resp.json().await?;
        if !ok {
            anyhow::bail!("webdriver {method} {path}: {}", v["value"]);
        }
        Ok(v["value"].clone())
    }
    pub async fn goto(&self, url: &str) -> Res<()> {
        self.cmd("POST", "/url", json!({ "url": url }))
            .await
            .map(drop)
    }
    pub async fn exec(&self, script: &str, args: Value) -> Res<Value> {
        self.execute("sync", script, args).await
    }
    /// Runs `script` as `/execute/{how}` (`sync` or `async`).
    async fn execute(&self, how: &str, script: &str, args: Value) -> Res<Value> {
        let body = json!({"script": script, "args": args});
        self.cmd("POST", &format!("/execute/{how}"), body).await
    }
    pub async fn find(&self, css: &str) -> Res<Option<String>> {
        let v = self
            .cmd(
                "POST",
                "/elements",
                json!({"using": "css selector", "value": css}),
            )
            .await?;
        Ok(v.as_array()
            .and_then(|a| a.first())
            .and_then(|e| e[ELEMENT].as_str())
            .map(str::to_string))
    }
    /// Waits (bounded) for an element.
    pub async fn wait_for(&self, css: &str, secs: u64) -> Res<String> {
        let end = Instant::now() + Duration::from_secs(secs);
        while Instant::now() < end {
            if let Some(e) = self.find(css).await? {
                return Ok(e);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        anyhow::bail!("no `{css}` after {secs} s")
    }
    pub async fn click(&self, element: &str) -> Res<()> {
        self.cmd("POST", &format!("/element/{element}/click"), json!({}))
            .await
            .map(drop)
    }
    /// A script that answers through its last argument, a callback (a promise waited on).
    pub async fn exec_async(&self, script: &str, args: Value) -> Res<Value> {
        self.execute("async", script, args).await
    }
    /// Presses and releases each key of `keys` in turn, to whatever has the focus, as a
    /// person at a keyboard would (WebDriver's key actions; a special key is its
    /// WebDriver code, such as [`key::TAB`]).
    pub async fn keys(&self, keys: &str) -> Res<()> {
        self.key_actions(key_presses(keys)).await
    }
    /// Shift held while the keys of `keys` are pressed (Shift+Tab).
    pub async fn shift_keys(&self, keys: &str) -> Res<()> {
        let mut actions = vec![json!({"type": "keyDown", "value": key::SHIFT})];
        actions.extend(key_presses(keys));
        actions.push(json!({"type": "keyUp", "value": key::SHIFT}));
        self.key_actions(actions).await
    }
    /// Performs a keyboard's `actions` (WebDriver's key actions).
    async fn key_actions(&self, actions: Vec<Value>) -> Res<()> {
        let body = json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]});
        self.cmd("POST", "/actions", body).await.map(drop)
    }
    pub async fn type_into(&self, element: &str, text: &str) -> Res<()> {
        self.cmd("POST", &format!("/element/{element}/clear"), json!({}))
            .await?;
        self.cmd(
            "POST",
            &format!("/element/{element}/value"),
            json!({ "text": text }),
        )
        .await
        .map(drop)
    }
    pub async fn body(&self) -> Res<Value> {
        self.exec(
            "const d = document.body.dataset; return {status: d.status || '', myturn: d.myturn || '', \
             version: Number(d.version || -1), connected: d.connected || '', \
             end: !!document.querySelector('.end-screen')}",
            json!([]),
        )
        .await
    }
    /// The whole page as a PNG (at most 3000 CSS pixels tall). What sticks to the window
    /// as it scrolls (a bar of buttons, a prompt) is drawn where the page's flow has it:
    /// in one picture of the whole page it would otherwise float over whatever happens
    /// to be at the window's edge at the scroll of the moment.
    pub async fn screenshot(&self, path: &Path) -> Res<()> {
        let size = self
            .exec(
                "window.__unstuck = [...document.querySelectorAll('body *')] \
                   .filter((e) => getComputedStyle(e).position === 'sticky'); \
                 for (const e of window.__unstuck) e.style.setProperty('position', 'static', 'important'); \
                 return [document.documentElement.scrollWidth, document.documentElement.scrollHeight, window.innerHeight]",
                json!([]),
            )
            .await?;
        let w = size[0].as_f64().unwrap_or(800.0);
        let h = size[1]
            .as_f64()
            .unwrap_or(600.0)
            .clamp(size[2].as_f64().unwrap_or(600.0), 3000.0);
        let shot = self
            .cmd(
                "POST",
                "/goog/cdp/execute",
                json!({"cmd": "Page.captureScreenshot", "params": {
                    "format": "png", "captureBeyondViewport": true,
                    "clip": {"x": 0, "y": 0, "width": w, "height": h, "scale": 1}}}),
            )
            .await?;
        self.exec(
            "for (const e of window.__unstuck || []) e.style.removeProperty('position'); \
             window.__unstuck = [];",
            json!([]),
        )
        .await?;
        let data = shot["data"]
            .as_str()
            .ok_or_else(|| anyhow::anyhow!("no screenshot"))?;
        std::fs::create_dir_all(path.parent().unwrap_or(Path::new(".")))?;
        std::fs::write(path, BASE64.decode(data)?)?;
        Ok(())
    }
    /// The errors the browser's console took since the last call (chromedriver's log of
    /// the browser: a script's error, a failed request such as a 429, a `console.error`).
    pub async fn console_errors(&self) -> Res<Vec<String>> {
        let log = self
            .cmd("POST", "/se/log", json!({"type": "browser"}))
            .await?;
        Ok(log
            .as_array()
            .map(|entries| {
                entries
                    .iter()
                    .filter(|e| e["level"] == json!("SEVERE"))
                    .map(|e| e["message"].as_str().unwrap_or_default().to_string())
                    .collect()
            })
            .unwrap_or_default())
    }
    pub async fn quit(self) {
        let _ = self.cmd("DELETE", "", json!({})).await;
    }
}

/// Where a screenshot goes: `docs/screenshots/` when `TABLETOP_UPDATE_SCREENSHOTS` is set
/// (to refresh the pictures in the README), else a scratch folder under `target/`, so an
/// ordinary test run leaves the checkout as it was.
pub fn screenshot_path(name: &str) -> PathBuf {
    let dir = if std::env::var_os("TABLETOP_UPDATE_SCREENSHOTS").is_some() {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/screenshots")
    } else {
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots")
    };
    dir.join(format!("{name}.png"))
}
