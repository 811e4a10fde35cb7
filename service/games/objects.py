"""The JSON objects an engine passes around besides its state, by what they are.

A state has its own types, written from its shape (``service.games.typegen``).  An
action, an event or a pending entry is an open JSON object: its keys are its kind's
(an action's are declared by its ``Action``, checked by that shape before an engine
reads it; an event's are documented by ``event_types``), so each is a
``dict[str, Any]`` under a name that says which it is.
"""

from __future__ import annotations

from typing import Any

#: a JSON object: a body, an answer, a view, a part of one
JsonObject = dict[str, Any]
#: an action as a client sends it: ``type``, ``player`` (a seat or ``"chance"``) and the
#: fields its ``Action`` declares (checked by its shape before any engine reads it)
ActionObject = dict[str, Any]
#: one entry of ``apply``'s events: ``type`` and that event type's fields
Event = dict[str, Any]
#: one pending decision: ``player`` (a seat or ``"chance"``), ``decision`` and the
#: decision's own fields
Entry = dict[str, Any]
#: errors by field path, as ``InvalidState`` and the invariants name them
Errors = dict[str, list[str]]
