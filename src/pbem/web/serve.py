"""``pbem serve``: a local web page that plays one campaign, guarded as a local server must be.

The page is another face of ``pbem play``, ``undo``, ``ingest`` and ``report`` (``serve_game``);
this module is the web server around it (Flask, on werkzeug's threaded server) and its guards:

* it listens on 127.0.0.1 only, on a free port unless one is given;
* every request carries the secret of this run: the link printed in the terminal holds a random
  token; visiting it sets a cookie (HttpOnly, SameSite=Strict, its name carrying the port) and
  sends the browser on to the page without the token; any request without that cookie, or with
  a wrong token, is refused (403) before anything is read;
* the Host header must be ``127.0.0.1:PORT`` or ``localhost:PORT``: a page of another site whose
  name was rebound to 127.0.0.1 (DNS rebinding) sends its own name and is refused (403);
* what changes the campaign is a POST carrying the page's CSRF token in a header (a form of
  another site cannot set one), from our own origin when the browser names one; a GET never
  changes anything;
* the private key and the campaign's secrets stay in the process (``serve_game.Seat``): no
  route returns them, none takes a passphrase, and downloads are limited to sent/ and outbox/.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import threading
from importlib import resources
from typing import Any

from ..errors import PbemError
from .serve_game import Seat, refusal

HOST = "127.0.0.1"
UPLOAD_SLACK = 64 * 1024  # multipart framing around a dropped file at the size limit
POLL_MS = 1500  # how often the page asks whether the campaign changed


class Server:
    """The web server of one ``Seat``: ``url`` holds the token; ``serve_forever`` until Ctrl-C,
    or ``start`` in a thread and ``stop`` (tests)."""

    def __init__(self, seat: Seat, port: int = 0) -> None:
        from werkzeug.serving import make_server

        self.seat = seat
        self.token = secrets.token_urlsafe(32)  # in the printed link only
        self.session = secrets.token_urlsafe(32)  # the cookie's value
        self.csrf = secrets.token_urlsafe(32)  # in the page, sent back in a header by its scripts
        self.port = 0
        app = build_app(self)
        try:
            self._server = make_server(HOST, port, app, threaded=True)
        except OSError as e:
            raise PbemError(f"cannot listen on {HOST}:{port}", e.strerror or str(e), code="unavailable") from None
        self.port = self._server.server_port
        self._thread: threading.Thread | None = None

    @property
    def origin(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def url(self) -> str:
        return f"{self.origin}/?token={self.token}"

    @property
    def hosts(self) -> set[str]:
        return {f"{HOST}:{self.port}", f"localhost:{self.port}"}

    @property
    def cookie(self) -> str:
        return f"pbem_serve_{self.port}"

    def serve_forever(self) -> None:
        try:
            self._server.serve_forever()
        finally:
            self._server.server_close()

    def start(self) -> Server:
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(5)


def _same(given: str | None, expected: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


def build_app(server: Server):
    from flask import Flask, Response, jsonify, redirect, request, send_file

    from .. import limits
    from ..view.report import environment

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no request log: the first one holds the token
    static = resources.files("pbem").joinpath("static")
    app = Flask("pbem.web.serve", static_folder=str(static), static_url_path="/static")
    app.config["MAX_CONTENT_LENGTH"] = limits.value("MAX_MAIL_BYTES") + UPLOAD_SLACK
    seat = server.seat
    templates = environment()

    def refused(status: int, why: str) -> Response:
        return Response(f"refused: {why}\n", status=status, mimetype="text/plain")

    @app.before_request
    def guard():
        if request.host not in server.hosts:
            return refused(403, "this server answers only to 127.0.0.1 and localhost on its own port "
                                "(the Host header names another)")
        token = request.args.get("token")
        if token is not None:
            if request.method != "GET" or request.path != "/" or not _same(token, server.token):
                return refused(403, "wrong token: open the link pbem serve printed in its terminal")
            response = redirect("/", code=303)
            response.set_cookie(server.cookie, server.session, httponly=True, samesite="Strict", path="/")
            return response
        if not _same(request.cookies.get(server.cookie), server.session):
            return refused(403, "open the link pbem serve printed in its terminal (it holds this run's token)")
        if request.method not in ("GET", "HEAD"):
            if request.method != "POST" or not _same(request.headers.get("X-PBEM-CSRF"), server.csrf):
                return refused(403, "a change must be a POST from the page itself (CSRF token missing or wrong)")
            origin = request.headers.get("Origin")
            if origin is not None and origin not in {f"http://{h}" for h in server.hosts}:
                return refused(403, f"a change must come from the page itself, not from {origin[:80]}")
        return None

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; "
            "connect-src 'self'; frame-ancestors 'self'; form-action 'self'; base-uri 'none'")
        response.headers["X-Frame-Options"] = "SAMEORIGIN"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Cross-Origin-Resource-Policy"] = "same-origin"
        return response

    def answer(work) -> tuple[Response, int]:
        try:
            return jsonify(work()), 200
        except PbemError as e:
            return jsonify({"ok": False, "refusal": refusal(e)}), 422

    @app.get("/")
    def page():
        try:
            context = seat.page()
        except PbemError as e:
            context = {"failure": refusal(e), "version": seat.version()}
        html = templates.get_template("serve.html.j2").render(
            seat_title=seat.title, seat_side=seat.side, game=seat.game_id, csrf=server.csrf, poll=POLL_MS,
            failure=None, **context)
        return Response(html, mimetype="text/html")

    @app.get("/report")
    def report():
        try:
            return Response(seat.report_html(), mimetype="text/html")
        except PbemError as e:
            return refused(422, f"{e.code}: {e}\n  {e.detail}")

    @app.get("/api/version")
    def version():
        return jsonify({"version": seat.version()})

    @app.get("/download/<path:relative>")
    def download(relative: str):
        try:
            path = seat.download(relative)
        except PbemError:
            return refused(404, "only turn files in sent/ and mail in outbox/ can be downloaded")
        return send_file(path, mimetype="text/plain" if path.suffix == ".pbem" else "message/rfc822",
                         as_attachment=True, download_name=path.name)

    def body() -> dict[str, Any]:
        data = request.get_json(silent=True)
        return data if isinstance(data, dict) else {}

    @app.post("/api/choose")
    def choose():
        data = body()
        return answer(lambda: seat.choose(str(data.get("order", "")), bool(data.get("confirm"))))

    @app.post("/api/send")
    def send():
        return answer(seat.send)

    @app.post("/api/say")
    def say():
        data = body()
        return answer(lambda: seat.say(str(data.get("to", "")), str(data.get("text", ""))))

    @app.post("/api/undo")
    def undo():
        return answer(seat.undo)

    @app.post("/api/ingest")
    def ingest():
        dropped = request.files.get("file")

        def work() -> dict[str, Any]:
            if dropped is None:
                raise PbemError("no file dropped", "drop a turn file or a saved message on the page",
                                code="no-turn-file")
            return seat.ingest(dropped.filename or "dropped file", dropped.read())

        return answer(work)

    @app.errorhandler(413)
    def too_large(_e):
        most = limits.value("MAX_MAIL_BYTES")
        error = limits.LimitError(f"the dropped file is larger than {limits.size(most)}",
                                  "set PBEM_MAX_MAIL_BYTES to read larger files")
        return jsonify({"ok": False, "refusal": refusal(error)}), 413

    return app
