"""Headless browsers for the browser door's tests: Chromium and Firefox.

Chromium: Debian's `chromium` and `chromium-driver`, driven by Selenium.
Firefox: Debian's `firefox-esr`, driven by Mozilla's own Marionette client
(`marionette-driver`) straight over Firefox's remote protocol, because no
geckodriver is packaged for Debian (docs/decisions/browser.md);
`FirefoxDriver` gives it the few Selenium calls the tests use. Both are
installed by `.ci/run`; nothing downloads a browser (SE_OFFLINE). The drivers
block, the game server runs in the test's event loop: every browser call runs
in a thread (`asyncio.to_thread`). Waiting is on the page's own changes: a
MutationObserver on the terminal's rows answers as soon as they change, and
the condition is read again then.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pathlib
import shutil
import tempfile
import threading
from collections.abc import Callable
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FIREFOX = "/usr/bin/firefox-esr"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT = 60.0  # an upper bound only: tests wait on what the page shows

ROWS_JS = """
const rows = document.querySelector('.xterm-rows');
return rows ? rows.innerText : '';
"""
# Answers at the next change of the terminal's rows (or after `arguments[0]` ms).
CHANGE_JS = """
const done = arguments[arguments.length - 1];
const rows = document.querySelector('.xterm-rows') || document.body;
const observer = new MutationObserver(() => { observer.disconnect(); done(true); });
observer.observe(rows, {childList: true, subtree: true, characterData: true});
setTimeout(() => { observer.disconnect(); done(false); }, arguments[0]);
"""


def available(kind: str = "chromium") -> bool:
    if kind == "firefox":
        return os.path.exists(FIREFOX)
    return os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)


class FirefoxElement:
    def __init__(self, element: Any) -> None:
        self.element = element

    def send_keys(self, keys: str) -> None:
        self.element.send_keys(keys)


class FirefoxDriver:
    """A headless Firefox (fresh profile) with the Selenium calls the tests use."""

    def __init__(self, width: int, height: int) -> None:
        # mozversion prints Firefox's build on every start unless its logger exists
        # already (mozlog.unstructured.getLogger then adds no handler of its own).
        logging.getLogger("mozversion").setLevel(logging.WARNING)
        from marionette_driver.marionette import Marionette

        # Firefox's own log goes to a folder of ours (by default: gecko.log here).
        self.logs = tempfile.mkdtemp(prefix="modernart-firefox-")
        self.client = Marionette(
            bin=FIREFOX,
            headless=True,
            host="127.0.0.1",
            port=0,
            startup_timeout=60,
            gecko_log=self.logs,
        )
        self.client.start_session()
        self.client.timeout.script = 30
        self.set_window_size(width, height)

    def get(self, url: str) -> None:
        self.client.navigate(url)

    def refresh(self) -> None:
        self.client.refresh()

    def execute_script(self, script: str, *args: Any) -> Any:
        return self.client.execute_script(script, script_args=list(args), new_sandbox=False)

    def execute_async_script(self, script: str, *args: Any) -> Any:
        return self.client.execute_async_script(script, script_args=list(args), new_sandbox=False)

    def find_element(self, by: str, value: str) -> FirefoxElement:
        return FirefoxElement(self.client.find_element(by, value))  # same `By` strings

    def get_cookie(self, name: str) -> dict[str, Any] | None:
        return next((c for c in self.client.get_cookies() if c["name"] == name), None)

    def set_window_size(self, width: int, height: int) -> None:
        self.client.set_window_rect(width=width, height=height)

    def save_screenshot(self, path: str) -> None:
        pathlib.Path(path).write_bytes(self.client.screenshot(format="binary"))

    def get_log(self, kind: str) -> list[dict[str, Any]]:
        raise NotImplementedError("Marionette has no console log: Chromium's tests read it")

    def quit(self) -> None:
        instance = self.client.instance
        self.client.delete_session()
        self.client.cleanup()
        if instance is not None:  # its profile removed now, not again at interpreter exit
            instance.profile.cleanup()
            instance.profile.restore = False
        shutil.rmtree(self.logs, ignore_errors=True)


class Browser:
    """One browser with a fresh profile (its own cookies): one browser of one player."""

    def __init__(self, width: int = 1100, height: int = 720, kind: str = "chromium") -> None:
        self.kind = kind
        self.profile = ""
        if kind == "firefox":
            self.driver: Any = FirefoxDriver(width, height)
            return
        os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must not fetch anything
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.profile = tempfile.mkdtemp(prefix="modernart-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in [*FLAGS, f"--user-data-dir={self.profile}", f"--window-size={width},{height}"]:
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
        self.driver.set_script_timeout(30)

    def quit(self) -> None:
        self.driver.quit()
        if self.profile:
            shutil.rmtree(self.profile, ignore_errors=True)

    def clean(self) -> bool:
        """A blank page and no cookies (those of every port of 127.0.0.1), as a fresh
        profile has: the page keeps nothing else (no storage); False if it failed."""
        try:
            self.driver.get("about:blank")
            if self.kind == "firefox":
                client = self.driver.client
                with client.using_context(client.CONTEXT_CHROME):
                    client.execute_script("Services.cookies.removeAll();")
            else:
                self.driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
                self.driver.get_log("browser")  # read: the next test's console starts empty
        except Exception:
            return False
        return True


# Browsers given back by earlier tests: a browser's start costs about 1 s of CPU (Firefox's
# 3 s), and the browser tests run one after another on one test worker.
_kept: list[Browser] = []
_kept_lock = threading.Lock()


def take(kind: str = "chromium", width: int = 1100, height: int = 720) -> Browser:
    """A browser of `kind` on a blank page without cookies, its window this size: one an
    earlier test gave back, or a new one. It blocks: call it in a thread."""
    with _kept_lock:
        browser = next((b for b in _kept if b.kind == kind), None)
        if browser is not None:
            _kept.remove(browser)
    if browser is None:
        return Browser(width, height, kind)
    browser.driver.set_window_size(width, height)
    return browser


def give_back(browser: Browser) -> None:
    """Clean `browser` for the next test and keep it; quit it if it cannot be cleaned."""
    if browser.clean():
        with _kept_lock:
            _kept.append(browser)
    else:
        browser.quit()


def quit_kept() -> None:
    with _kept_lock:
        kept = list(_kept)
        _kept.clear()
    for browser in kept:
        browser.quit()


class Page:
    """The game's page in one browser: what its terminal shows, and keys typed into it."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.driver = browser.driver

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    async def open(self, url: str) -> None:
        await self.call(self.driver.get, url)

    async def text(self) -> str:
        text = await self.call(self.driver.execute_script, ROWS_JS)
        return str(text).replace("\xa0", " ")

    async def run(self, script: str, *args: Any) -> Any:
        return await self.call(self.driver.execute_script, script, *args)

    async def next_change(self, ms: int = 1000) -> None:
        """Until the terminal next changes, or `ms` milliseconds."""
        await self.call(self.driver.execute_async_script, CHANGE_JS, ms)

    async def wait(self, ok: Callable[[str], bool], what: str, timeout: float = WAIT) -> str:
        """The terminal's text once `ok(text)` holds, read again at each change. Out of
        time, the last text read is told: a browser that stopped answering (Firefox did,
        once, in a full suite) would hold a new read until the suite's timeout."""
        text = ""
        try:
            async with asyncio.timeout(timeout):
                while not ok(text := await self.text()):
                    await self.next_change()
        except TimeoutError:
            raise AssertionError(f"no {what} after {timeout} s; last read:\n{text}") from None
        return text

    async def wait_text(self, text: str, timeout: float = WAIT) -> str:
        return await self.wait(lambda shown: text in shown, repr(text), timeout)

    async def send(self, keys: str) -> None:
        """Type `keys` into the terminal: characters, and \\r, ↑ (ESC [ A), ctrl+s as keys."""
        from selenium.webdriver.common.keys import Keys

        mapped = (
            keys.replace("\x1b[A", Keys.ARROW_UP)
            .replace("\r", Keys.ENTER)
            .replace("\x13", Keys.CONTROL + "s" + Keys.NULL)
        )
        from selenium.webdriver.common.by import By

        def type_keys() -> None:
            box = self.driver.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea")
            box.send_keys(mapped)

        await self.call(type_keys)

    async def console(self) -> list[dict[str, Any]]:
        return list(await self.call(self.driver.get_log, "browser"))

    async def screenshot(self, path: pathlib.Path) -> None:
        await self.call(self.driver.save_screenshot, str(path))
