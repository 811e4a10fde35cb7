"""The test client the suite uses: Flask's, with a shorter road for plain requests.

Most in-process tests send thousands of plain requests (a path, a JSON body, a few
headers).  Flask's test client builds each through werkzeug's ``EnvironBuilder`` and
wraps the answer through its redirect and cookie handling: a third of the time of
such a test, spent on the harness rather than on the app.  ``QuickClient`` builds
the WSGI environ of a plain request itself and calls the app as a server would;
everything else (``data`` forms, cookies, redirects, ``with client:`` contexts,
an ``EnvironBuilder``…) goes through Flask's own road.  The app sees the same
request either way; ``tests/http/test_quick_client.py`` holds the two roads to
the same answers.
"""

from __future__ import annotations

import sys
from io import BytesIO
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse
from werkzeug.wrappers import Request

#: keyword arguments the short road takes; any other goes Flask's way
PLAIN = frozenset({"method", "json", "headers", "data", "content_type"})


class QuickClient(FlaskClient):
    """``FlaskClient`` whose plain requests skip ``EnvironBuilder`` (see module)."""

    def open(self, *args: Any, buffered: bool = False, follow_redirects: bool = False,
             **kwargs: Any) -> TestResponse:
        environ = None
        if (len(args) == 1 and isinstance(args[0], str) and not buffered
                and not follow_redirects and not self.preserve_context
                and not self._cookies and kwargs.keys() <= PLAIN):
            environ = self._environ(args[0], **kwargs)
        if environ is None:
            return super().open(*args, buffered=buffered, follow_redirects=follow_redirects,
                                **kwargs)
        status_headers: list[Any] = []

        def start_response(status, headers, exc_info=None):
            status_headers[:] = [status, headers]
            return lambda data: None

        app_iter = self.application(environ, start_response)
        try:
            body = b"".join(app_iter)
        finally:
            close = getattr(app_iter, "close", None)
            if close is not None:
                close()
        status, headers = status_headers
        response = self.response_wrapper([body], status, headers, request=Request(environ))
        response.json_module = self.application.json  # type: ignore[assignment]
        return response

    def _environ(self, path: str, method: str = "GET", json: Any = None,
                 headers: Any = None, data: Any = None,
                 content_type: str | None = None) -> dict[Any, Any] | None:
        """The WSGI environ of a plain request, or None when it is not plain."""
        if not path.isascii() or "%" in path or "#" in path or not path.startswith("/"):
            return None
        if headers is not None and not isinstance(headers, dict):
            return None
        if json is not None:
            if data is not None:
                return None
            body = self.application.json.dumps(json).encode()
            content_type = content_type or "application/json"
        elif data is None:
            body = b""
        elif isinstance(data, bytes):
            body = data
        elif isinstance(data, str):
            body = data.encode()
        else:
            return None
        path_info, _, query = path.partition("?")
        environ = {
            **self.environ_base,
            "REQUEST_METHOD": method.upper(), "SCRIPT_NAME": "", "PATH_INFO": path_info,
            "QUERY_STRING": query, "REQUEST_URI": path, "RAW_URI": path, "SERVER_NAME": "localhost", "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_HOST": "localhost",
            "wsgi.version": (1, 0), "wsgi.url_scheme": "http", "wsgi.input": BytesIO(body),
            "wsgi.errors": sys.stderr, "wsgi.multithread": False, "wsgi.multiprocess": False,
            "wsgi.run_once": False,
        }
        if body or method.upper() in ("POST", "PUT", "PATCH"):
            environ["CONTENT_LENGTH"] = str(len(body))
        if content_type is not None:
            environ["CONTENT_TYPE"] = content_type
        for name, value in (headers or {}).items():
            if not isinstance(value, str) or not name.isascii():
                return None
            key = name.upper().replace("-", "_")
            if key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
                environ[key] = value
            else:
                environ["HTTP_" + key] = value
        return environ
