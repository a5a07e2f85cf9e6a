"""The director's web app (Starlette): room view, incident queue, rulings, results, settings.

Pages are plain HTML/JS/CSS from ``static/`` (no build step), laid out for a phone or tablet.
Every ``/api`` route but login needs a director session (cookie ``gammon_session``); changes
come to the browser as server-sent events on ``/api/stream``. Errors are JSON
``{"error": "..."}`` naming the field at fault.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, Final

from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kiosk.dashboard.auth import verify_password
from kiosk.dashboard.diagram import board_svg
from kiosk.dashboard.room import UnknownIncidentError
from kiosk.dashboard.service import DashboardService

STATIC_DIR: Final = Path(__file__).with_name("static")
COOKIE: Final = "gammon_session"
_FAILED_LOGIN_DELAY_S: Final = 0.5

Handler = Callable[[Request], Awaitable[Response]]


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _validation_message(error: ValidationError) -> str:
    item = error.errors()[0]
    where = ".".join(str(part) for part in item["loc"]) or "request"
    return f"{where}: {item['msg']}"


async def _json_body(request: Request) -> dict[str, Any]:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise ValueError("send application/json")
    body = await request.json()
    if not isinstance(body, dict):
        raise ValueError("the body must be a JSON object")
    return body


def create_app(service: DashboardService) -> Starlette:
    """The web app over ``service`` (which the app starts and stops with its lifespan)."""

    def director_of(request: Request) -> str | None:
        return service.sessions.director(request.cookies.get(COOKIE))

    def authed(handler: Callable[[Request, str], Awaitable[Response]]) -> Handler:
        async def wrapped(request: Request) -> Response:
            director = director_of(request)
            if director is None:
                return _error("log in first", 401)
            return await handler(request, director)

        return wrapped

    async def index(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html")

    async def login(request: Request) -> Response:
        try:
            body = await _json_body(request)
        except (ValueError, json.JSONDecodeError) as error:
            return _error(f"login: {error}", 400)
        name, password = body.get("name"), body.get("password")
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 40:
            return _error("name: give your name (1-40 characters)", 400)
        if not isinstance(password, str) or not await run_in_threadpool(
            verify_password, password, service.config.password_hash
        ):
            await asyncio.sleep(_FAILED_LOGIN_DELAY_S)
            return _error("password: wrong password", 401)
        response = JSONResponse({"director": name.strip()})
        response.set_cookie(
            COOKIE,
            service.sessions.open(name.strip()),
            httponly=True,
            samesite="strict",
            secure=service.config.secure_cookie,
        )
        return response

    async def logout(request: Request) -> Response:
        service.sessions.close(request.cookies.get(COOKIE))
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE)
        return response

    async def me(request: Request, director: str) -> Response:
        return JSONResponse({"director": director, "event": service.config.event})

    async def room(request: Request, director: str) -> Response:
        return JSONResponse(
            {
                "event": service.config.event,
                "server_ms": service.now_ms(),
                "tables": service.room.tables(),
                "incidents": service.room.incidents(),
                "results": service.room.results(),
                "connected": service.broker_connected,
            }
        )

    async def stream(request: Request, director: str) -> Response:
        return StreamingResponse(
            service.broadcaster.stream({"link": {"connected": service.broker_connected}}),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    def incident_of(request: Request) -> Any:
        return service.room.incident(request.path_params["table"], request.path_params["incident"])

    async def snapshot(request: Request, director: str) -> Response:
        try:
            incident = incident_of(request)
        except UnknownIncidentError as error:
            return _error(str(error.args[0]), 404)
        if incident.snapshot_jpeg is None:
            return _error("this incident has no snapshot", 404)
        return Response(base64.b64decode(incident.snapshot_jpeg), media_type="image/jpeg")

    async def diagram(request: Request, director: str) -> Response:
        try:
            incident = incident_of(request)
        except UnknownIncidentError as error:
            return _error(str(error.args[0]), 404)
        if incident.position_id is None:
            return _error("this incident has no position", 404)
        which = request.query_params.get("play", "seen")
        if which == "seen":
            play, colour = incident.play_seen, "#d00"
        elif which.isdigit() and int(which) < len(incident.legal_plays):
            play, colour = incident.legal_plays[int(which)], "#080"
        else:
            return _error(f"play: {which!r} is not 'seen' or a legal play's index", 400)
        svg = board_svg(incident.position_id, play, colour)
        return Response(svg, media_type="image/svg+xml")

    async def ruling(request: Request, director: str) -> Response:
        try:
            body = await _json_body(request)
            summary = service.send_ruling(
                request.path_params["table"],
                request.path_params["incident"],
                str(body.get("decision", "")),
                str(body.get("note", "")),
                director,
            )
        except UnknownIncidentError as error:
            return _error(str(error.args[0]), 404)
        except ValidationError as error:
            return _error(_validation_message(error), 400)
        except (ValueError, json.JSONDecodeError) as error:
            return _error(f"ruling: {error}", 400)
        return JSONResponse(summary)

    async def result_mat(request: Request, director: str) -> Response:
        result = service.room.result(request.path_params["result"])
        if result is None:
            return _error("no such result", 404)
        filename = f"{service.config.event}-{result.table}-{result.id[:8]}.mat"
        return Response(
            result.mat,
            media_type="text/plain; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    async def settings_get(request: Request, director: str) -> Response:
        current = service.room.settings()
        return JSONResponse(None if current is None else current.model_dump(mode="json"))

    async def settings_post(request: Request, director: str) -> Response:
        try:
            body = await _json_body(request)
            settings = service.send_settings(body)
        except ValidationError as error:
            return _error(_validation_message(error), 400)
        except (ValueError, json.JSONDecodeError) as error:
            return _error(f"settings: {error}", 400)
        return JSONResponse(settings.model_dump(mode="json"))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        service.broadcaster.attach(asyncio.get_running_loop())
        service.start()
        try:
            yield
        finally:
            await run_in_threadpool(service.stop)

    base = "/api/incidents/{table}/{incident}"
    routes = [
        Route("/", index),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/me", authed(me)),
        Route("/api/room", authed(room)),
        Route("/api/stream", authed(stream)),
        Route(f"{base}/snapshot.jpg", authed(snapshot)),
        Route(f"{base}/diagram.svg", authed(diagram)),
        Route(f"{base}/ruling", authed(ruling), methods=["POST"]),
        Route("/api/results/{result}.mat", authed(result_mat)),
        Route("/api/settings", authed(settings_get), methods=["GET"]),
        Route("/api/settings", authed(settings_post), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
