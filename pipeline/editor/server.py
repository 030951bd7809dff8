"""``gunbai edit``'s web server: one scenario of a Genpei data folder, the page that edits it,
and the JSON calls the page makes (Starlette on uvicorn, bound to 127.0.0.1).

Every request carries the per-run secret token (``?token=`` or the ``X-Gunbai-Token`` header)
or is refused with 403; a request naming another host than the server's is refused with 403
too (DNS rebinding). Bodies are bounded (:data:`MAX_JSON_BYTES`, :data:`MAX_PICTURE_BYTES`).

Calls (JSON in and out unless said)::

    GET  /                      the page              GET  /static/NAME        its script, style
    GET  /api/state             scenario, trays, findings, underlay settings
    POST /api/edit {edit}       one edit (pipeline.editor.document.ScenarioText.apply)
    POST /api/undo, /api/redo
    GET  /art/board.png         the board as the VASSAL module draws it
    GET  /art/piece/NAME.png    a counter or tile image (names as the module's images)
    POST /api/underlay          the picture's bytes (PNG, JPEG, GIF, WebP, BMP, TIFF)
    GET  /api/underlay.png      the picture, re-encoded
    POST /api/underlay/settings {scale, rotation, x, y, opacity, source}
    POST /api/save              write the scenario in place (409 when changed on disk)
    POST /api/save_copy {name}  write it as scenarios/NAME.yaml beside it
    POST /api/play {games}      quick games in a process of their own; GET /api/play: progress
    POST /api/play/cancel
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import math
import re
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from pipeline.editor.document import EditError, ScenarioText, mark_entered
from pipeline.errors import DataError, GunbaiError

STATIC = Path(__file__).resolve().parent / "static"
#: The page's files, the only names ``/static/`` serves.
STATIC_FILES = {"editor.js": "text/javascript", "editor.css": "text/css"}
#: Most bytes of a JSON request body.
MAX_JSON_BYTES = 256 * 1024
#: Most bytes of an underlay picture, and most pixels.
MAX_PICTURE_BYTES = 32 * 1024 * 1024
MAX_PICTURE_PIXELS = 40_000_000
#: The sidecar of a scenario that keeps the editor's underlay settings (not read by the loader:
#: only ``*.yaml`` files of ``scenarios/`` are scenarios).
SIDECAR_SUFFIX = ".editor.json"
UNDERLAY_SUFFIX = ".underlay.png"


class Refused(GunbaiError):
    """A request the editor will not serve (status, message)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def scenario_path(data_root: Path, given: Path) -> tuple[Path, Path]:
    """The scenario file and its system folder, ``given`` checked to be a ``.yaml`` file in a
    ``<system>/scenarios/`` folder inside ``data_root`` (symbolic links resolved).

    Raises:
        GunbaiError: the file is missing, not YAML, outside the data folder, or not a Genpei
            scenario (the editor knows the hex board of Genpei only).
    """
    root = data_root.resolve()
    try:
        p = given.resolve(strict=True)
    except (OSError, RuntimeError) as exc:
        raise GunbaiError(f"{given}: no such scenario file") from exc
    if not p.is_file() or p.suffix != ".yaml":
        raise GunbaiError(f"{given}: a scenario file is a .yaml file")
    if not p.is_relative_to(root):
        raise GunbaiError(f"{given}: outside the data folder {data_root} (the editor opens only the scenarios of its data folder)")
    rel = p.relative_to(root).parts
    if len(rel) != 3 or rel[1] != "scenarios":
        raise GunbaiError(f"{given}: not in a <system>/scenarios/ folder of {data_root}")
    if rel[0] != "genpei":
        raise GunbaiError(f"{given}: gunbai edit knows the Genpei hex board only (see the README for OHW, Sekigahara and Ronin)")
    return p, root / rel[0]


def stand_ins(text: str) -> str:
    """``text`` made checkable by every legality rule: ``map: entered`` (cited by gunbai edit)
    in place of ``not public``, and for each ``unknown`` a value that passes its own checks (1
    Command card, no Dragon cards or H&F, the south and north edges, the first side moves first,
    1 banner). Only for checking: never saved.

    Raises:
        EditError: the text is not a scenario mapping.
    """
    from pipeline.editor.document import dump_text, load_text

    doc = load_text(text)
    if doc.get("map") == "not public":
        doc["map"] = "entered"
        doc["map_source"] = {"doc": "gunbai", "section": "Scenario format", "confidence": "L", "note": "gunbai edit's check"}
    for i, side in enumerate(doc.get("sides") or []):
        for key, value in (("command_cards", 1), ("dragon_cards", 0), ("honour_fortune", 0), ("edge", "south" if i == 0 else "north")):
            if side.get(key) == "unknown":
                side[key] = value
    if doc.get("first_player") == "unknown" and doc.get("sides"):
        doc["first_player"] = doc["sides"][0]["id"]
    if isinstance(doc.get("victory"), dict) and doc["victory"].get("banners") == "unknown":
        doc["victory"]["banners"] = 1
    return dump_text(doc)


def _digest(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


@dataclass
class Underlay:
    """The picture traced, and how it lies on the board: board pixel = rotate(picture pixel ×
    ``scale``, ``rotation`` degrees clockwise) + (``x``, ``y``); drawn at ``opacity`` (0-1).
    ``source`` is its citation (``doc``, ``section``…) written to ``map_source`` on save."""

    png: bytes
    width: int
    height: int
    scale: float = 1.0
    rotation: float = 0.0
    x: float = 0.0
    y: float = 0.0
    opacity: float = 0.5
    source: dict[str, Any] = field(default_factory=dict)

    def settings(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height, "scale": self.scale, "rotation": self.rotation,
                "x": self.x, "y": self.y, "opacity": self.opacity, "source": self.source}


def read_picture(raw: bytes) -> tuple[bytes, int, int]:
    """``raw`` checked as a picture by Pillow and re-encoded as PNG: ``(png, width, height)``.

    Raises:
        Refused: too large (:data:`MAX_PICTURE_BYTES`, :data:`MAX_PICTURE_PIXELS`) or not a
            picture Pillow reads.
    """
    from PIL import Image

    if len(raw) > MAX_PICTURE_BYTES:
        raise Refused(413, f"the picture is {len(raw)} bytes; at most {MAX_PICTURE_BYTES}")
    try:
        with Image.open(io.BytesIO(raw)) as probe:
            if probe.format not in ("PNG", "JPEG", "GIF", "WEBP", "BMP", "TIFF"):
                raise Refused(415, f"a PNG, JPEG, GIF, WebP, BMP or TIFF picture, not {probe.format}")
            if probe.width * probe.height > MAX_PICTURE_PIXELS:
                raise Refused(413, f"the picture is {probe.width} x {probe.height} pixels; at most {MAX_PICTURE_PIXELS} pixels")
            probe.verify()
        with Image.open(io.BytesIO(raw)) as img:
            img.load()
            rgba = img.convert("RGBA")
    except Refused:
        raise
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError) as exc:
        raise Refused(415, f"not a picture Pillow reads: {exc}") from exc
    out = io.BytesIO()
    rgba.save(out, "PNG")
    return out.getvalue(), rgba.width, rgba.height


class Editor:
    """The state of one ``gunbai edit`` run: the data, the scenario being edited, the underlay,
    the image cache and the quick-play process.

    Raises (constructor):
        GunbaiError: as :func:`scenario_path`; DataError: the data folder does not load.
    """

    def __init__(self, data_root: Path, scenario: Path, token: str) -> None:
        from pipeline.systems.genpei.build import layout_of
        from pipeline.systems.genpei.load import load

        self.path, self.system_dir = scenario_path(data_root, scenario)
        self.token = token
        self.data = load(self.system_dir, scenario_files=[])
        self.layout = layout_of(self.data)
        raw = self.path.read_bytes()
        self.opened = _digest(raw)
        try:
            self.doc = ScenarioText(raw.decode("utf-8"))
        except (UnicodeDecodeError, EditError) as exc:
            raise GunbaiError(f"{scenario}: not a readable scenario file ({exc})") from exc
        self.lock = threading.Lock()
        self.images: dict[str, bytes] = {}
        self.jobs: dict[str, Any] | None = None
        self.underlay: Underlay | None = None
        self.play: dict[str, Any] | None = None
        self.proc: subprocess.Popen | None = None
        self.saved = False
        self._load_sidecar()

    # -- files -----------------------------------------------------------------------------------

    @property
    def sidecar(self) -> Path:
        return self.path.with_name(self.path.stem + SIDECAR_SUFFIX)

    @property
    def underlay_file(self) -> Path:
        return self.path.with_name(self.path.stem + UNDERLAY_SUFFIX)

    def _load_sidecar(self) -> None:
        if not (self.sidecar.is_file() and self.underlay_file.is_file()):
            return
        try:
            meta = json.loads(self.sidecar.read_text(encoding="utf-8"))
            png, w, h = read_picture(self.underlay_file.read_bytes())
            self.underlay = Underlay(png, w, h)
            self._set_underlay(meta.get("underlay", {}))
        except (ValueError, OSError, Refused, TypeError, AttributeError):
            self.underlay = None  # a broken sidecar is not fatal: the picture can be loaded again

    def _set_underlay(self, s: dict[str, Any]) -> None:
        u = self.underlay
        if u is None:
            raise Refused(409, "no underlay picture loaded")

        def num(key: str, lo: float, hi: float) -> float:
            v = s.get(key, getattr(u, key))
            if not isinstance(v, int | float) or isinstance(v, bool) or not math.isfinite(v) or not lo <= v <= hi:
                raise Refused(400, f"underlay {key}: a number from {lo} to {hi}")
            return float(v)

        u.scale, u.rotation = num("scale", 1e-3, 1e3), num("rotation", -360, 360)
        u.x, u.y, u.opacity = num("x", -1e5, 1e5), num("y", -1e5, 1e5), num("opacity", 0, 1)
        src = s.get("source", u.source)
        if not isinstance(src, dict) or len(json.dumps(src)) > 2000:
            raise Refused(400, "underlay source: a citation {doc, section, confidence, note}")
        u.source = {k: v for k, v in src.items() if k in ("doc", "section", "confidence", "note") and isinstance(v, str)}

    # -- checks ----------------------------------------------------------------------------------

    def findings(self, text: str) -> list[dict[str, Any]]:
        """What ``gunbai verify`` says of ``text`` (the scenario as it would be saved): its
        schema problems, else its legality findings and incomplete note, as the page lists them.

        ``verify`` checks only the sides and cards of an incomplete scenario (a map ``not
        public``, values ``unknown``): so that the layout being entered is checked all the same,
        such a scenario is also checked as :func:`stand_ins` makes it, and what that finds is
        listed too (without a line: the stand-in text's lines are not the file's)."""
        found = self._verify(text)
        if not any(f["rule"] == "incomplete" for f in found):
            return found
        try:
            extra = [f for f in self._verify(stand_ins(text)) if f["rule"] not in ("incomplete", "schema")]
        except EditError:
            return found
        seen = {(f["rule"], tuple(f["hex"] or ()), f["message"]) for f in found}
        out = [f for f in found if f["rule"] != "incomplete"]
        out += [{**f, "line": None} for f in extra if (f["rule"], tuple(f["hex"] or ()), f["message"]) not in seen]
        for f in found:
            if f["rule"] == "incomplete":
                out.append({**f, "message": f["message"] + " (the layout is checked with stand-ins for these)"})
        return out

    def _verify(self, text: str) -> list[dict[str, Any]]:
        from pipeline.data.yamlfile import YamlDocument
        from pipeline.systems.genpei.data import LoadedScenario
        from pipeline.systems.genpei.model import Scenario
        from pipeline.systems.genpei.verify import RULES, Finding, verify_scenario

        try:
            ydoc = YamlDocument.parse(text, self.path)
            sc = ydoc.validate(Scenario)
        except DataError as exc:
            return [{"rule": "schema", "hex": None, "line": p.line, "message": f"{p.where}: {p.value}: expected {p.expected}", "source": "gunbai, Scenario format"}
                    for p in exc.problems]
        out = []
        for f in verify_scenario(self.data, LoadedScenario(sc, ydoc)):
            if isinstance(f, Finding):
                r = RULES[f.rule]
                out.append({"rule": f.rule, "hex": list(f.hex) if f.hex else None, "line": f.line, "message": f.message, "source": f"{r.doc}, {r.section}"})
            else:
                out.append({"rule": "incomplete", "hex": None, "line": None, "message": str(f).split(": incomplete: ", 1)[-1], "source": "gunbai, Scenario format"})
        return out

    def state(self) -> dict[str, Any]:
        """Everything the page draws: the scenario's pieces and form, the trays, the findings."""
        from pipeline.editor.document import load_text

        doc = load_text(self.doc.text)
        return {
            "path": str(self.path), "scenario": _plain(doc), "findings": self.findings(self.doc.text),
            "undo": len(self.doc.undo_stack), "redo": len(self.doc.redo_stack),
            "underlay": self.underlay.settings() if self.underlay else None,
        }

    def catalogue(self) -> dict[str, Any]:
        """The trays and the board geometry (constant for a run)."""
        from pipeline.systems.genpei import art

        d, lay = self.data, self.layout
        w, h = lay.size
        return {
            "board": {"columns": d.board.columns, "rows": d.board.rows, "short_rows": d.board.short_rows, "width": w, "height": h,
                      "hex_width": lay.hex_width, "row_height": lay.row_height, "hex_height": lay.hex_height, "origin": list(lay.origin)},
            "terrain": [{"id": t.id, "name": t.name, "overlay": t.overlay, "hexsides": t.hexsides, "image": art.terrain_image_name(t.id)} for t in d.terrain.values()],
            "units": [{"id": u.id, "name": u.name, "tags": list(u.tags), "images": {a: art.unit_image_name(u.id, a) for a in d.system.armies}} for u in d.units.values()],
            "leaders": [{"id": lt.id, "name": lt.name, "kind": lt.kind, "images": {a: art.leader_image_name(lt.id, a) for a in d.system.armies}} for lt in d.leaders.values()],
            "markers": [{"id": m.id, "name": m.name, "kind": m.kind, "image": art.marker_image_name(m.id)} for m in d.markers.values() if m.placed == "hex"],
            "armies": list(d.system.armies), "sources": [doc.id for doc in d.sources.documents],
            "sizes": art.counter_sizes(lay),
        }

    # -- art ---------------------------------------------------------------------------------------

    def image(self, name: str) -> bytes:
        """A PNG of the module's art by image name, drawn on first request.

        Raises:
            Refused: no such image.
        """
        from pipeline.systems.genpei import art

        with self.lock:
            if name in self.images:
                return self.images[name]
            if name == "board":
                img = art.render_board(self.data, self.layout)
            else:
                if self.jobs is None:
                    sides = [c for n in range(1, 7) for c in combinations(("NE", "E", "SE", "SW", "W", "NW"), n)]
                    self.jobs = art.counter_jobs(self.data, self.layout, list(self.data.system.armies), sides)
                job = self.jobs.get(name + ".png") or self.jobs.get(name)
                if job is None:
                    raise Refused(404, f"no image {name!r}")
                img = job.render(art.renderer())
            buf = io.BytesIO()
            img.save(buf, "PNG")
            self.images[name] = buf.getvalue()
            return self.images[name]

    # -- saving ------------------------------------------------------------------------------------

    def text_to_save(self) -> str:
        """The text a save writes: with ``map: entered`` and the underlay's citation when a
        picture was traced."""
        text = self.doc.text
        if self.underlay is not None:
            if not self.underlay.source.get("doc") or not self.underlay.source.get("section"):
                raise Refused(400, "cite the underlay picture (a document of sources.yaml and its section) before saving")
            try:
                text = mark_entered(text, self.underlay.source)
            except EditError as exc:
                raise Refused(400, str(exc)) from exc
        return text

    def save(self, target: Path | None = None) -> dict[str, Any]:
        """Write the scenario atomically to its file (or ``target``, a new file beside it), with
        the sidecar and the underlay picture.

        Raises:
            Refused: the file changed on disk since it was opened (409), ``target`` exists (409),
                or the scenario does not validate (422).
        """
        from pipeline.output import write_bytes_atomic

        text = self.text_to_save()
        schema = [f for f in self.findings(text) if f["rule"] == "schema"]
        if schema:
            raise Refused(422, "not saved: the scenario does not validate: " + "; ".join(f["message"] for f in schema))
        path = target or self.path
        if target is None:
            now = _digest(self.path.read_bytes()) if self.path.is_file() else None
            if now != self.opened:
                raise Refused(409, f"{self.path.name} changed on disk since it was opened: not saved over; save a copy instead")
        elif target.exists():
            raise Refused(409, f"{target.name} exists: choose another name")
        raw = text.encode("utf-8")
        write_bytes_atomic(path, raw)
        self.saved = True
        if self.underlay is not None:
            write_bytes_atomic(path.with_name(path.stem + UNDERLAY_SUFFIX), self.underlay.png)
            meta = {"format": 1, "scenario": path.name, "underlay": {**self.underlay.settings(), "picture": path.stem + UNDERLAY_SUFFIX}}
            write_bytes_atomic(path.with_name(path.stem + SIDECAR_SUFFIX), (json.dumps(meta, indent=2, sort_keys=True) + "\n").encode())
        if target is None:
            self.opened = _digest(raw)
            if text != self.doc.text:
                self.doc.undo_stack.append(self.doc.text)
                self.doc.text = text
        return {"saved": str(path)}

    # -- quick play --------------------------------------------------------------------------------

    def start_play(self, games: int) -> None:
        """Start quick games of the scenario as it stands in a process of their own."""
        from pipeline.editor.quickplay import MAX_GAMES

        self.cancel_play()
        tmp = Path(tempfile.mkdtemp(prefix="gunbai-edit-"))
        f = tmp / self.path.name
        f.write_text(self.doc.text, encoding="utf-8")
        games = max(1, min(MAX_GAMES, games))
        self.play = {"running": True, "games": games, "done": 0, "wins": [0, 0], "unfinished": 0, "lines": []}
        proc = subprocess.Popen([sys.executable, "-m", "pipeline.editor.quickplay", str(self.system_dir), str(f), str(games), "1"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.proc = proc
        play = self.play

        def follow() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                try:
                    msg = json.loads(line)
                except ValueError:
                    continue
                with self.lock:
                    play.update({k: v for k, v in msg.items() if k in ("policy", "proven", "sides", "done", "wins", "unfinished", "intervals", "error")})
                    if msg.get("end"):
                        play["finished"] = True
            proc.wait()
            with self.lock:
                play["running"] = False
            for p in tmp.iterdir():
                p.unlink()
            tmp.rmdir()

        threading.Thread(target=follow, daemon=True).start()

    def cancel_play(self) -> None:
        """End the quick-play process, if one runs."""
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            if self.play is not None:
                self.play["cancelled"] = True
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()


def _plain(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


async def _body(request: Request, limit: int) -> bytes:
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > limit):
        raise Refused(413, f"request body over {limit} bytes")
    chunks, n = [], 0
    async for chunk in request.stream():
        n += len(chunk)
        if n > limit:
            raise Refused(413, f"request body over {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def _json(request: Request) -> Any:
    raw = await _body(request, MAX_JSON_BYTES)
    try:
        return json.loads(raw or b"{}")
    except ValueError as exc:
        raise Refused(400, f"not JSON: {exc}") from exc


def make_app(editor: Editor, port_holder: dict[str, int] | None = None) -> Starlette:
    """The Starlette application of ``editor``: the token and host checks, then the routes of
    the module doc. ``port_holder["port"]`` is the port the server listens on (for the host
    check; 0 = not known yet, any port of 127.0.0.1 or localhost)."""
    ports = port_holder if port_holder is not None else {"port": 0}

    def page(request: Request) -> Response:
        html = (STATIC / "editor.html").read_text(encoding="utf-8").replace("%TOKEN%", editor.token)
        return Response(html, media_type="text/html", headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})

    def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC_FILES:
            raise Refused(404, "no such file")
        return FileResponse(STATIC / name, media_type=STATIC_FILES[name])

    def state(request: Request) -> Response:
        return JSONResponse({**editor.state(), "catalogue": editor.catalogue()})

    async def edit(request: Request) -> Response:
        body = await _json(request)
        try:
            editor.doc.apply(body.get("edit") if isinstance(body, dict) else None, editor.data)
        except EditError as exc:
            raise Refused(400, str(exc)) from exc
        return JSONResponse(editor.state())

    async def undo(request: Request) -> Response:  # on the event loop, as edits are: one at a time
        (editor.doc.undo if request.url.path.endswith("undo") else editor.doc.redo)()
        return JSONResponse(editor.state())

    def art(request: Request) -> Response:
        name = request.path_params["name"]
        if not re.fullmatch(r"[A-Za-z0-9_.-]{1,120}", name):
            raise Refused(404, "no such image")
        return Response(editor.image(name.removesuffix(".png")), media_type="image/png", headers={"Cache-Control": "max-age=3600"})

    async def underlay(request: Request) -> Response:
        if request.method == "GET":
            if editor.underlay is None:
                raise Refused(404, "no underlay picture")
            return Response(editor.underlay.png, media_type="image/png", headers={"Cache-Control": "private, max-age=3600"})
        png, w, h = read_picture(await _body(request, MAX_PICTURE_BYTES))
        old = editor.underlay
        editor.underlay = Underlay(png, w, h, source=old.source if old else {})
        return JSONResponse(editor.state())

    async def underlay_settings(request: Request) -> Response:
        body = await _json(request)
        if not isinstance(body, dict):
            raise Refused(400, "underlay settings are a JSON object")
        editor._set_underlay(body)
        return JSONResponse(editor.state())

    async def save(request: Request) -> Response:
        await _json(request)
        return JSONResponse({**editor.save(), **editor.state()})

    async def save_copy(request: Request) -> Response:
        body = await _json(request)
        name = body.get("name") if isinstance(body, dict) else None
        if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9][a-z0-9_]{0,63}", name):
            raise Refused(400, "a copy's name is 1 to 64 lower-case letters, digits and _ (it is written beside the scenario as NAME.yaml)")
        return JSONResponse(editor.save(editor.path.with_name(name + ".yaml")))

    async def play(request: Request) -> Response:
        if request.method == "POST":
            body = await _json(request)
            games = body.get("games", 20) if isinstance(body, dict) else 20
            if not isinstance(games, int) or isinstance(games, bool):
                raise Refused(400, "games: a whole number")
            editor.start_play(games)
        with editor.lock:
            return JSONResponse(dict(editor.play or {}, lines=None))

    def cancel(request: Request) -> Response:
        editor.cancel_play()
        return JSONResponse(dict(editor.play or {}, lines=None))

    routes = [
        Route("/", page), Route("/static/{name}", static), Route("/api/state", state),
        Route("/api/edit", edit, methods=["POST"]), Route("/api/undo", undo, methods=["POST"]), Route("/api/redo", undo, methods=["POST"]),
        Route("/art/{name}", art), Route("/api/underlay.png", underlay), Route("/api/underlay", underlay, methods=["POST"]),
        Route("/api/underlay/settings", underlay_settings, methods=["POST"]),
        Route("/api/save", save, methods=["POST"]), Route("/api/save_copy", save_copy, methods=["POST"]),
        Route("/api/play", play, methods=["GET", "POST"]), Route("/api/play/cancel", cancel, methods=["POST"]),
    ]
    inner = Starlette(routes=routes, exception_handlers={Refused: lambda req, exc: PlainTextResponse(str(exc), status_code=exc.status)})
    token = editor.token.encode()

    async def app(scope, receive, send):
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
            host = headers.get("host", "")
            hostname, _, port = host.rpartition(":") if ":" in host else (host, "", "")
            ok_host = hostname in ("127.0.0.1", "localhost") and (not ports["port"] or port == str(ports["port"]))
            given = headers.get("x-gunbai-token", "")
            if not given:
                from urllib.parse import parse_qs

                given = (parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token") or [""])[0]
            if not ok_host or not hmac.compare_digest(given.encode("utf-8", "replace"), token):
                resp = PlainTextResponse("refused: this gunbai edit server needs the token of the URL it printed", status_code=403)
                await resp(scope, receive, send)
                return
        await inner(scope, receive, send)

    return app
