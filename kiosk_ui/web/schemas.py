"""Request and response bodies of the HTTP API (pydantic), separate from domain types.

The OpenAPI schema generated from these is the contract with the kiosk pages,
terminals and any third-party client. Amounts are integer cents everywhere.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Cents = int


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StrictIn(BaseModel):
    """A request body: no unknown fields, and no coercion. An amount or a count is a
    JSON integer; ``"100"`` and ``100.0`` are refused with the field named, never read
    as 100 (a client that sends them has a bug, and money is not guessed)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class ErrorBody(Strict):
    code: str = Field(description="stable machine-readable code, e.g. 'insufficient-funds'")
    message: str = Field(description="a clear sentence for people")


class ErrorResponse(Strict):
    error: ErrorBody


class BetLimitOut(Strict):
    minimum: Cents
    maximum: Cents
    increment: Cents


class CollectionOut(Strict):
    """A California table's collection schedule: the fee per seat per hand by its wagers
    (``tiers``: (up to, fee) in cents, rising; ``above``: the fee past the last tier), so the
    page can show the fee for a bet slip not yet posted."""

    tiers: list[tuple[int, int]]
    above: Cents


class TableOut(Strict):
    id: str
    variant: str
    family: str
    title: str
    source: str
    seats: int
    suspended: str | None
    limits: dict[str, BetLimitOut]
    notes: list[str]
    #: the bets a player places with chips before the deal (the others come with a decision:
    #: a play, call or raise bet is shown on the layout but not offered as a spot to tap)
    chip_spots: list[str]
    #: bet -> the bet it always equals (Ultimate Texas Hold'em: blind -> ante)
    matched: dict[str, str]
    #: the house rules as a player reads them (kiosk_ui/web/house_rules.toml; ``notes``
    #: are the variant's engineering record)
    house_rules: list[str]
    #: the collection schedule (None: the table takes no collection)
    collection: CollectionOut | None = None
    #: the base URL of the server that serves the table (another worker or appliance of
    #: a shared store; its pages and feed are there); None: this server
    url: str | None = None


class PlayerOut(Strict):
    id: str
    name: str
    balance: Cents
    demo: bool


class NewPlayer(StrictIn):
    name: str = Field(default="Guest", min_length=1, max_length=40)


class ActionIn(StrictIn):
    """One player action. ``kind`` picks which of the other fields apply."""

    kind: Literal["place-bet", "remove-bet", "deal", "decide"]
    seat: int = Field(default=0, ge=0, le=15)
    bet: str = Field(default="", max_length=40)
    amount: Cents = Field(default=0, ge=0, le=100_000_000)
    decision: str = Field(default="", max_length=40)
    arg: str = Field(default="", max_length=200)
    hand: int = Field(default=0, ge=0, le=8)
    #: a backline bet (place-bet / remove-bet): ``seat`` is the seated hand bet on, the
    #: caller holds no seat there (21st Century Blackjack, page 004)
    backline: bool = False


class RoundIn(StrictIn):
    """A bet slip placed and dealt in one atomic request (what a kiosk's Deal button sends)."""

    seat: int = Field(default=0, ge=0, le=15)
    bets: dict[str, Annotated[int, Field(ge=1, le=100_000_000)]] = Field(
        min_length=1, max_length=80
    )
    deal: bool = True


class ActOut(Strict):
    game: str
    events: list[dict[str, Any]]
    view: dict[str, Any]
    balance: Cents
    over: bool


class HistoryItem(Strict):
    game: str
    variant: str
    table: str
    status: str
    started: int
    ended: int | None
    staked: Cents
    net: Cents
    collection: Cents = Field(0, description="the California collection paid (page 004)")
    title: str = Field("", description="the game's name, as the lobby shows it")
    ended_local: str | None = Field(None, description="the end, on the casino's clock")


class CommitmentOut(Strict):
    """Whether the game's cards were its committed shoe (certification.log.commitments)."""

    sha256: str | None = Field(description="the SHA-256 committed at game start, if any")
    holds: bool | None = Field(
        description="true: the revealed shoe hashes to the commitment and every card dealt "
        "is its next card; false: it does not (see detail); null: nothing to check "
        "(no shoe, a physical shoe, or not revealed)"
    )
    source: Literal["rng-shoe", "physical-shoe", "none"]
    detail: str


class RecallOut(Strict):
    game: str
    text: str = Field(description="the game as this player saw it at the table")
    matches: bool = Field(description="the replay reproduces every logged event")
    commitment: CommitmentOut
    title: str = Field("", description="the game's name, as the lobby shows it")
    picture: dict[str, Any] = Field(
        default_factory=dict, description="the table as the player saw it: hands, dice, wheel"
    )


class Login(StrictIn):
    user: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=256)


class SessionOut(Strict):
    token: str
    user: str
    role: str
    expires: float


class CashIn(StrictIn):
    amount: Cents = Field(gt=0, le=100_000_000)


class VoidIn(StrictIn):
    reason: str = Field(min_length=3, max_length=200)


class SuspendIn(StrictIn):
    reason: str = Field(min_length=3, max_length=200)


class NewOperator(StrictIn):
    user: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=8, max_length=256)
    role: Literal["operator", "technician", "auditor"]


class RoleIn(StrictIn):
    role: Literal["admin", "operator", "technician", "auditor"]


class PasswordChange(StrictIn):
    """The signed-in operator's own password change: the old one proves it is them."""

    old_password: str = Field(min_length=1, max_length=256)
    new_password: str = Field(min_length=8, max_length=256)


class PasswordReset(StrictIn):
    """An admin sets another operator's password (their sessions end)."""

    password: str = Field(min_length=8, max_length=256)


class OperatorOut(Strict):
    user: str
    role: str
    disabled: bool


class OperatorMe(Strict):
    user: str
    role: str
    expires: float


class VerifyOut(Strict):
    ok: bool
    records: int
    checkpoints: int
    last_signed_seq: int
    unsigned_tail: int
    message: str


class AuditOut(Strict):
    ok: bool
    message: str
    report: dict[str, Any]
