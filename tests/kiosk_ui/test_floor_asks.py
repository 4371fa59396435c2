"""The floor's asks between servers: each proven once, fresh, for its server, request and body.

An attacker on the casino's network reads the asks in clear (kiosk_ui.web.floor_asks):
these tests send them again, late, to another server, with another body, in other
characters, and after the asked server restarted; each is refused, and only a good one
is remembered.
"""

from __future__ import annotations

import time

import pytest

from kiosk_ui.web.floor_asks import ASK_WINDOW, AskGuard, AskRefused, answer_proof, ask_tag

SECRET = "s" * 64
URL = "http://10.0.0.2:8000"
HERE = "/api/floor/here"


def guard(started: float | None = None) -> AskGuard:
    return AskGuard(SECRET, URL + "/", started=time.time() - 5 if started is None else started)


def test_a_fresh_ask_is_let_in_once() -> None:
    door = guard()
    tag = ask_tag(SECRET, URL, "GET", HERE)
    ask = door.admit(tag, "GET", HERE)
    assert tag.split(".")[2] == ask.nonce
    with pytest.raises(AskRefused, match="already answered"):
        door.admit(tag, "GET", HERE)
    # a second ask of the same request is a new one
    door.admit(ask_tag(SECRET, URL, "GET", HERE), "GET", HERE)


@pytest.mark.parametrize(
    ("tag_for", "sent_as"),
    [
        ((SECRET, "http://10.0.0.3:8000", "GET", HERE, b""), ("GET", HERE, b"")),  # another server
        ((SECRET, URL, "GET", HERE, b""), ("POST", HERE, b"")),  # another method
        (
            (SECRET, URL, "POST", "/api/floor/alarms/1/ack", b""),
            ("POST", "/api/floor/alarms/2/ack", b""),
        ),
        ((SECRET, URL, "POST", "/a", b'{"by": "alice"}'), ("POST", "/a", b'{"by": "mallory"}')),
        (("t" * 64, URL, "GET", HERE, b""), ("GET", HERE, b"")),  # another floor's secret
    ],
)
def test_an_ask_is_good_for_its_server_request_and_body_only(
    tag_for: tuple[str, str, str, str, bytes], sent_as: tuple[str, str, bytes]
) -> None:
    door = guard()
    tag = ask_tag(*tag_for)
    with pytest.raises(AskRefused, match="not one of this floor's servers for this request"):
        door.admit(tag, *sent_as)
    # refused asks are not remembered: the right one with its nonce still gets in
    nonce = tag.split(".")[2]
    door.admit(ask_tag(SECRET, URL, *sent_as, nonce=nonce), *sent_as)


def test_an_old_ask_or_one_from_a_wrong_clock_is_refused_with_how_far_off() -> None:
    door = guard(started=time.time() - 3600)
    for off in (-ASK_WINDOW - 5, ASK_WINDOW + 5):
        with pytest.raises(AskRefused, match="floor's clocks must agree"):
            door.admit(ask_tag(SECRET, URL, "GET", HERE, at=time.time() + off), "GET", HERE)
    door.admit(ask_tag(SECRET, URL, "GET", HERE, at=time.time() - ASK_WINDOW + 5), "GET", HERE)


def test_an_ask_read_before_a_restart_is_refused_after_it() -> None:
    """A restarted server has forgotten the nonces it saw; an ask made before it started
    (within the window, read on the wire) is refused by its time."""
    tag = ask_tag(SECRET, URL, "GET", HERE, at=time.time() - 2)
    before = guard()  # started 5 s ago: the ask is in
    before.admit(tag, "GET", HERE)
    after = guard(started=time.time() - 1)
    with pytest.raises(AskRefused, match="before this server started"):
        after.admit(tag, "GET", HERE)


@pytest.mark.parametrize(
    "odd",
    ["", "x", "1.5.abc", "\u0661\u0662\u0663.000000." + "a" * 32 + "." + "b" * 64, "\u00e9" * 64],
)
def test_a_tag_of_another_shape_is_refused_not_an_error(odd: str) -> None:
    with pytest.raises(AskRefused, match="not one of this floor's"):
        guard().admit(odd, "GET", HERE)


def test_unicode_digits_in_the_time_are_no_second_spelling_of_an_ask() -> None:
    tag = ask_tag(SECRET, URL, "GET", HERE)
    when, frac, nonce, mac = tag.split(".")
    arabic = "".join(chr(0x0660 + int(d)) for d in when)
    with pytest.raises(AskRefused):
        guard().admit(f"{arabic}.{frac}.{nonce}.{mac}", "GET", HERE)


def test_the_memory_of_nonces_is_pruned_and_holds_only_proven_asks() -> None:
    door = guard(started=time.time() - 3600)
    for _ in range(100):  # forged: never remembered
        with pytest.raises(AskRefused):
            door.admit(ask_tag("t" * 64, URL, "GET", HERE), "GET", HERE)
    assert not door._seen
    old = time.time() - ASK_WINDOW + 1
    for _ in range(70):
        door.admit(ask_tag(SECRET, URL, "GET", HERE, at=old), "GET", HERE)
    door._seen = {n: t - 2 * ASK_WINDOW for n, t in door._seen.items()}  # as if a minute on
    door.admit(ask_tag(SECRET, URL, "GET", HERE), "GET", HERE)
    assert len(door._seen) == 1


def test_an_answer_proves_itself_to_its_ask_only() -> None:
    body = b'{"tables": []}'
    one = answer_proof(SECRET, URL, "GET", HERE, "a" * 32, body)
    assert one == answer_proof(SECRET, URL + "/", "get", HERE, "a" * 32, body)
    assert one != answer_proof(SECRET, URL, "GET", HERE, "b" * 32, body)
    assert one != answer_proof(SECRET, URL, "GET", HERE, "a" * 32, body + b" ")
