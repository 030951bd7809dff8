"""``gunbai edit SCENARIO.yaml``: lay out a Genpei scenario in the browser, over a picture of the
published map, with the legality rules of ``gunbai verify`` checking every change.

The editor sits at the top of the layers, beside :mod:`pipeline.cli`: it reads the data
(:mod:`pipeline.systems.genpei.load`), checks with :mod:`pipeline.systems.genpei.verify`, draws
with the module's art (:mod:`pipeline.systems.genpei.art`) and plays with
:mod:`pipeline.play`; nothing below imports it.

Modules: :mod:`~pipeline.editor.document` (the scenario's round-trip YAML and the edits),
:mod:`~pipeline.editor.server` (the web server and its calls), :mod:`~pipeline.editor.quickplay`
(the background games), ``static/`` (the page).
"""

from __future__ import annotations

import secrets
import socket
import sys
import webbrowser
from pathlib import Path


def serve(data_root: Path, scenario: Path, *, open_browser: bool = True, port: int = 0, announce=print) -> None:
    """Serve the editor of ``scenario`` on 127.0.0.1 until Ctrl-C (or SIGTERM).

    Args:
        data_root: the data folder (``source_data``); ``scenario`` must be in its
            ``genpei/scenarios/`` folder.
        open_browser: open the page in the default browser.
        port: the TCP port, 0 for a free one.
        announce: called with the line giving the URL (with the run's secret token).

    Raises:
        GunbaiError: the scenario is outside the data folder or not a Genpei scenario;
            DataError: the data folder does not load; OSError: the port is taken.
    """
    import uvicorn

    from pipeline.editor.server import Editor, make_app

    token = secrets.token_urlsafe(24)
    editor = Editor(data_root, scenario, token)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)
    bound = sock.getsockname()[1]
    ports = {"port": bound}
    app = make_app(editor, ports)
    url = f"http://127.0.0.1:{bound}/?token={token}"
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                            limit_concurrency=64, timeout_keep_alive=5)
    server = uvicorn.Server(config)
    announce(f"gunbai edit: {editor.path} at {url} (Ctrl-C stops)")
    sys.stdout.flush()
    if open_browser:
        webbrowser.open(url)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # Ctrl-C (or SIGTERM) is how the editor is stopped: exit 0
        pass
    finally:
        editor.cancel_play()
        sock.close()
    announce("gunbai edit: stopped" + ("" if editor.saved else " (nothing saved)"))
