"""Issue 17 points 1-7: the floor terminal's broken controls and the player's words.

Each test drives the pages in Debian's Chromium as a player (or the operator) would and
checks what the player sees, not only what the server holds.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_operator_sign_in_shows_the_form_alone_then_the_console_alone(
    page: Page, operator_password: str
) -> None:
    """Point 3: `hidden` hides, whatever display the page's CSS gives the element."""
    page.goto("/operator")
    expect(page.locator("#login")).to_be_visible()
    expect(page.locator("#console")).to_be_hidden()
    expect(page.locator("#p-devices")).to_be_hidden()
    expect(page.locator("#logout")).to_be_hidden()
    page.fill("#user", "admin")
    page.fill("#password", operator_password)
    page.click("#login button[type=submit]")
    expect(page.locator("#console")).to_be_visible()
    expect(page.locator("#login")).to_be_hidden()
    expect(page.locator("#logout")).to_be_visible()
    page.click("#logout")
    expect(page.locator("#login")).to_be_visible()
    expect(page.locator("#console")).to_be_hidden()


def open_table(page: Page, table: str) -> None:
    page.goto(f"/table/{table}")
    expect(page.locator("#title")).not_to_have_text("…")
    page.wait_for_selector(".spot")
    idle(page)


def idle(page: Page) -> None:
    expect(page.locator("body:not(.busy)")).to_be_attached()


def place(page: Page, spot: str, chip: int = 500) -> None:
    page.click(f'.chip[data-value="{chip}"]')
    page.click(f'.spot[data-bet="{spot}"]')
    idle(page)


def test_oasis_draw_shows_its_price_and_replaces_the_picked_cards(page: Page) -> None:
    """Point 1: Draw sends the picked cards' positions; the button names the price first."""
    open_table(page, "oasis-poker")
    place(page, "ante")  # $5 ante: 1 card 1x, 2 cards 2x, 3 cards 3x (the paytable's prices)
    page.click("#deal")
    idle(page)
    draw = page.locator("#draw")
    expect(draw).to_be_disabled()
    expect(draw).to_have_text("Draw: select the cards to replace")
    hand = page.locator('.hand[data-hand="hand"] svg.card')
    expect(hand).to_have_count(5)
    before = hand.evaluate_all("cs => cs.map(c => c.dataset.card)")
    hand.nth(1).click()
    expect(draw).to_have_text("Draw 1 card for $5.00")
    hand.nth(3).click()
    expect(draw).to_have_text("Draw 2 cards for $10.00")
    draw.click()
    idle(page)
    expect(page.locator("#notice")).to_be_hidden()
    expect(hand).to_have_count(5)
    after = hand.evaluate_all("cs => cs.map(c => c.dataset.card)")
    kept = [before[i] for i in (0, 2, 4)]
    assert after[:3] == kept and not set(after[3:]) & {before[1], before[3]}
    expect(page.locator("#draw")).to_have_count(0)  # one draw per game
    page.click('#decisions button[data-decision="fold"]')
    idle(page)
    expect(page.locator('#result li[data-bet="draw"]')).to_contain_text("-$10.00")
    hist = page.request.get("/api/history").json()
    assert hist[0]["staked"] == 500 + 1_000


def operator_session(page: Page, password: str) -> None:
    """Sign the page's browser context in as the operator (the API, with its cookie)."""
    r = page.request.post("/api/operator/login", data={"user": "admin", "password": password})
    assert r.ok, r.text()


def test_suspend_and_resume_reach_an_open_table_page(page: Page, operator_password: str) -> None:
    """Point 4: both arrive over the table's WebSocket; no reload, no operator's words."""
    open_table(page, "war-standard")
    place(page, "main")
    spot = page.locator('.spot[data-bet="main"]')
    expect(spot).to_be_enabled()
    operator_session(page, operator_password)
    r = page.request.post("/api/operator/tables/war-standard/suspend", data={"reason": "jam"})
    assert r.ok, r.text()
    expect(page.locator("#phase")).to_have_text("suspended")
    expect(spot).to_be_disabled()
    expect(page.locator("#deal")).to_have_count(0)
    expect(page.locator("#status")).to_contain_text("Table closed for a moment")
    expect(page.locator("main")).not_to_contain_text("admin")
    expect(page.locator("main")).not_to_contain_text("jam")
    r = page.request.post("/api/operator/tables/war-standard/resume")
    assert r.ok, r.text()
    expect(page.locator("#status")).not_to_contain_text("closed")
    expect(spot).to_be_enabled()
    expect(page.locator("#deal")).to_be_visible()


def wallet(page: Page) -> int:
    return int(page.request.get("/api/me").json()["balance"])


def finish(page: Page, prefer: tuple[str, ...] = ("check", "stand", "fold")) -> None:
    """Take the offered decisions (``prefer`` first) until the round is over."""
    for _ in range(50):
        if page.evaluate("document.body.dataset.over") == "true":
            return
        offered = page.locator("#decisions button[data-decision]")
        names = offered.evaluate_all(
            "bs => bs.filter(b => !b.disabled).map(b => b.dataset.decision)"
        )
        pick = next((d for d in prefer if d in names), names[0] if names else None)
        if pick is None:
            page.wait_for_timeout(100)
        else:
            page.click(f'#decisions button[data-decision="{pick}"]:not([disabled])')
        idle(page)
    raise AssertionError("the round did not end")


def test_uth_blind_goes_on_and_off_with_the_ante(page: Page) -> None:
    """Point 5: the Blind is matched to the Ante, never tapped alone; Undo takes both."""
    open_table(page, "ultimate-texas-holdem")
    blind = page.locator('.spot[data-bet="blind"]')
    expect(blind).to_be_disabled()
    place(page, "ante")
    expect(page.locator('.spot[data-bet="ante"] .stake')).to_have_text("$5.00")
    expect(blind.locator(".stake")).to_have_text("$5.00")
    place(page, "ante", chip=100)
    expect(blind.locator(".stake")).to_have_text("$6.00")
    page.click("#undo")
    idle(page)
    expect(blind.locator(".stake")).to_have_text("$5.00")
    expect(page.locator("#on-table")).to_have_text("$10.00")
    page.click("#deal")
    idle(page)
    finish(page)
    assert page.request.get("/api/history").json()[0]["staked"] >= 1_000


@pytest.mark.parametrize(
    ("table", "decided"),
    [
        ("three-card-poker", ("play",)),
        ("ultimate-texas-holdem", ("play",)),
        ("lets-em-ride", ("raise-1", "raise-2")),
    ],
)
def test_bets_placed_by_decisions_are_not_offered_as_spots(
    page: Page, table: str, decided: tuple[str, ...]
) -> None:
    """Point 5: the Play and raise spots show but do not take chips; the rest do."""
    open_table(page, table)
    for bet in decided:
        expect(page.locator(f'.spot[data-bet="{bet}"]')).to_be_disabled()
        expect(page.locator(f'.spot[data-bet="{bet}"]')).to_have_class("spot by-decision")
    expect(page.locator('.spot[data-bet="ante"]')).to_be_enabled()


def test_after_a_round_undo_is_off_the_result_has_no_null_and_stays(page: Page) -> None:
    """Point 5: Undo is off once the chips are settled; no 'null' line; Always
    Contribute between games leaves the last result on show."""
    open_table(page, "caribbean-stud")
    place(page, "ante")
    page.click("#deal")
    idle(page)
    finish(page, ("fold",))
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#undo")).to_be_disabled()
    assert "null" not in page.locator("#result").inner_text()
    net = page.locator("#round-net").inner_text()
    page.click("#always-contribute")
    idle(page)
    expect(page.locator("#always-contribute")).to_have_text("Always contribute: on")
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#round-net")).to_have_text(net)
    place(page, "ante")  # the next game's first chip takes the old result away
    expect(page.locator("#result")).to_be_hidden()


def test_take_the_bank_defaults_to_a_chip_and_shows_the_bank_on_a_spot(page: Page) -> None:
    """Point 5: the bank offered is not the whole balance; once taken, a spot shows it."""
    open_table(page, "pai-gow-land")
    place(page, "main")
    page.click("#deal")
    idle(page)
    finish(page, ("house-way",))
    expect(page.locator('#decisions button[data-decision="bank"]')).to_be_visible()
    offered = float(page.locator("#bank-amount").input_value())
    assert 0 < offered * 100 < wallet(page)
    page.fill("#bank-amount", "40")
    page.click('#decisions button[data-decision="bank"]')
    idle(page)
    expect(page.locator("#bank-spot .stake")).to_have_text("$40.00")


# --- point 6: the player's words ------------------------------------------------------

INTERNAL = ("sim://", "rng:", "baccarat-live", "baccarat-pinnacle", "null", "undefined", "cents")
ENGINEERING = ("page", "Standard", "README", "reading", "gap ", "engine", "configurable")


def assert_player_words(text: str, player: str) -> None:
    for bit in (*INTERNAL, player):
        assert bit not in text, f"{bit!r} shown to the player: {text[:400]}"


def test_pages_show_no_internal_codes_and_the_house_rules(page: Page) -> None:
    """Point 6: no player id, table id, device URL or code; house rules for players."""
    page.goto("/")
    expect(page.locator('.tile[data-table="baccarat-live"]')).to_be_visible()
    player = page.request.get("/api/me").json()["id"]
    assert_player_words(page.locator("body").inner_text(), player)
    open_table(page, "baccarat-live")
    expect(page.locator("#seat-info")).to_have_text("Seat 1 of 1")
    page.click("#rules-box summary")
    rules = page.locator("#notes li")
    expect(rules.first).to_contain_text("Six decks")
    text = page.locator("body").inner_text()
    assert_player_words(text, player)
    for word in ENGINEERING:
        assert word not in page.locator("#notes").inner_text(), word


def test_the_player_words_filter(page: Page) -> None:
    """Point 6: server texts as the player reads them: dollars, seats from 1, cards, names."""
    open_table(page, "craps-pinnacle")
    said = page.evaluate(
        "([t, names]) => Croupier.words(t, names)",
        ["seat 0 has 1250 cents on dont-pass; Ts beats 9h", {"dont-pass": "Don't pass"}],
    )
    assert said == "Seat 1 has $12.50 on Don't pass; 10♠ beats 9♥"


def test_insufficient_balance_is_told_beside_the_spot_and_offers_the_cashier(page: Page) -> None:
    """Point 6: the refusal in dollars next to the spot tapped, with a way to add credit."""
    open_table(page, "blackjack-high-stakes")
    for _ in range(2):
        place(page, "main", chip=50_000)
    place(page, "main", chip=50_000)  # $1,500 on a $1,000 balance
    error = page.locator('.spot-wrap:has(.spot[data-bet="main"]) + .field-error')
    expect(error).to_contain_text("Insufficient balance: $500.00 short")
    expect(error.locator("#cashier-offer")).to_be_visible()
    expect(page.locator('.spot[data-bet="main"] .stake')).to_have_text("$1,000.00")
    # the chips are a bet slip until Deal: the header shows the balance less the slip, the
    # wallet is untouched (the server moves the money at Deal, in one request)
    expect(page.locator("#balance")).to_have_text("$0.00")
    assert wallet(page) == 100_000
    expect(page.locator('.spot[data-bet="main"]')).to_have_class(re.compile(r"\bpending\b"))


# --- point 7: history and recall ------------------------------------------------------


def play(page: Page, table: str, bet: str, start: str) -> None:
    open_table(page, table)
    place(page, bet)
    page.click(f"#{start}")
    idle(page)
    finish(page)


def test_history_names_games_in_local_time_and_draws_the_recall(page: Page) -> None:
    """Point 7: game names, the casino's clock ([lobby] time_zone = America/New_York in
    the test settings), and the recall drawn: cards, dice, the wheel's number."""
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    play(page, "baccarat-pinnacle", "banker", "deal")
    play(page, "sicbo-macau", "big", "roll")
    play(page, "roulette-single-zero", "red", "spin")
    hist = page.request.get("/api/history").json()
    page.goto("/history")
    rows = page.locator("#games tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0).locator("td.title")).to_have_text("Roulette (single zero)")
    expect(rows.nth(2).locator("td.title")).to_have_text("Pinnacle Baccarat")
    at = datetime.fromtimestamp(hist[2]["ended"] / 1e6, tz=UTC).astimezone(
        ZoneInfo("America/New_York")
    )
    hour = at.strftime("%I").lstrip("0")
    expect(rows.nth(2).locator("td.ended")).to_have_text(
        f"{at:%b} {at.day}, {at.year}, {hour}:{at:%M} {at:%p} {at.tzname()}"
    )
    rows.nth(2).click()
    recall = page.request.get(f"/api/history/{hist[2]['game']}").json()
    drawn = page.locator('#recall-picture .hand[data-hand="banker"] svg.card')
    banker = next(h["cards"] for h in recall["picture"]["hands"] if h["hand"] == "banker")
    expect(drawn).to_have_count(len(banker))
    assert drawn.evaluate_all("cs => cs.map(c => c.dataset.card)") == banker
    rows.nth(1).click()
    expect(page.locator("#recall-picture svg.die")).to_have_count(3)
    rows.nth(0).click()
    spun = page.request.get(f"/api/history/{hist[0]['game']}").json()["picture"]["wheel"]
    expect(page.locator("#recall-picture .wheel-number")).to_have_text(spun[0])
    assert_player_words(page.locator("main").inner_text(), page.request.get("/api/me").json()["id"])


# --- point 2: baccarat, the player as dealer ------------------------------------------


def test_baccarat_player_deals_each_card_from_the_shoe(page: Page) -> None:
    """Point 2, page 000: "the player is given the shoe and clicks it for each card", even
    at an RNG table: the runtime waits for each click and the card goes to its hand."""
    open_table(page, "baccarat-pinnacle")
    page.get_by_role("button", name="Me").click()
    idle(page)
    place(page, "player")
    page.click("#deal")
    idle(page)
    hands = page.locator('.hand[data-hand="player"] svg.card, .hand[data-hand="banker"] svg.card')
    expect(hands).to_have_count(0)  # nothing dealt before the player's first click
    expect(page.locator("#status")).to_contain_text("Your deal")
    clicks = 0
    while page.evaluate("document.body.dataset.over") != "true":
        to = page.locator("#shoe").get_attribute("data-to")
        before = page.locator(f'.hand[data-hand="{to}"] svg.card').count()
        page.click("#shoe")
        idle(page)
        clicks += 1
        expect(page.locator(f'.hand[data-hand="{to}"] svg.card')).to_have_count(before + 1)
        assert clicks <= 6
    assert 4 <= clicks == hands.count()
    expect(page.locator("#shoe")).to_have_count(0)
    game = page.request.get("/api/history").json()[0]["game"]
    recall = page.request.get(f"/api/history/{game}").json()
    assert recall["matches"]
    assert "every card dealt is the committed shoe's" in recall["commitment"]["detail"]


# --- point 12: keyboard alone ---------------------------------------------------------


def focused(page: Page) -> dict[str, str]:
    """What has the focus: its id, bet, decision, and the page area holding it."""
    return page.evaluate(
        """() => { const a = document.activeElement;
            const area = a.closest('#decisions') ? 'decisions' : a.closest('#spots') ? 'spots'
              : a.closest('#chips') ? 'chips' : a.closest('#felt') ? 'felt'
              : a.closest('#options') ? 'options' : a.closest('main') ? 'main' : 'outside';
            return { id: a.id || '', bet: a.dataset.bet || '', decision: a.dataset.decision || '',
                     area }; }"""
    )


def keyboard_round(page: Page, spot: str, start: str, prefer: tuple[str, ...]) -> int:
    """Play one round by keys alone; returns the Tab presses (Tab and Shift+Tab) it took."""
    tabs = 0
    assert focused(page)["area"] in ("spots", "decisions"), focused(page)
    if page.locator('#decisions [data-decision="decline-bank"]').count():
        for _ in range(10):  # the player/dealer position is offered first: decline it
            if focused(page)["decision"] == "decline-bank":
                break
            page.keyboard.press("Tab")
            tabs += 1
        page.keyboard.press("Enter")
        idle(page)
    for _ in range(400):  # arrows inside the spots: one Tab stop
        if focused(page)["bet"] == spot:
            break
        page.keyboard.press("ArrowRight")
    assert focused(page)["bet"] == spot
    page.keyboard.press("Enter")
    idle(page)
    for _ in range(30):
        if focused(page)["id"] == start:
            break
        page.keyboard.press("Shift+Tab")
        tabs += 1
    assert focused(page)["id"] == start, focused(page)
    page.keyboard.press("Enter")
    idle(page)
    for _ in range(60):
        if page.evaluate("document.body.dataset.over") == "true":
            return tabs
        now = focused(page)
        assert now["area"] in ("decisions", "spots", "felt"), f"focus left the action area: {now}"
        offered = page.locator("#decisions button:not([disabled])").evaluate_all(
            "bs => bs.map(b => b.dataset.decision || b.id)"
        )
        want = next((d for d in prefer if d in offered), offered[0] if offered else None)
        if want is None:
            page.wait_for_timeout(100)
            continue
        for _ in range(20):
            if want in (focused(page)["decision"], focused(page)["id"]):
                break
            page.keyboard.press("Tab")
            tabs += 1
        page.keyboard.press("Enter")
        idle(page)
    raise AssertionError("the round did not end")


def test_baccarat_by_keyboard_takes_a_few_tabs(page: Page) -> None:
    """Point 12: one baccarat round by keyboard, focus kept in the action area: 3 Tab
    presses (Shift+Tab from the spots to Deal), where it took 38."""
    open_table(page, "baccarat-pinnacle")
    tabs = keyboard_round(page, "banker", "deal", ())
    assert tabs <= 4, tabs
    expect(page.locator("#result")).to_be_visible()
    assert page.request.get("/api/history").json()[0]["staked"] == 100  # the $1 chip


@pytest.mark.parametrize(
    ("table", "spot", "start", "prefer"),
    [
        ("blackjack-pinnacle", "main", "deal", ("no-insurance", "stand")),
        ("war-standard", "main", "deal", ("war",)),
        ("sicbo-macau", "big", "roll", ()),
        ("craps-pinnacle", "pass", "roll", ("roll",)),
        ("roulette-single-zero", "red", "spin", ()),
        ("three-card-poker", "ante", "deal", ("fold",)),
        ("caribbean-stud", "ante", "deal", ("fold",)),
        ("lets-em-ride", "ante", "deal", ("continue", "pull-back", "pull")),
        ("pai-gow-pinnacle", "main", "deal", ("house-way",)),
        ("ultimate-texas-holdem", "ante", "deal", ("check", "fold")),
    ],
)
def test_every_family_plays_a_round_by_keyboard(
    page: Page, table: str, spot: str, start: str, prefer: tuple[str, ...]
) -> None:
    """Point 12: each family's round by keys alone, focus never dropping to the page."""
    open_table(page, table)
    tabs = keyboard_round(page, spot, start, prefer)
    assert tabs <= 12, tabs
    assert len(page.request.get("/api/history").json()) == 1


def test_an_action_refused_by_a_suspension_reads_in_the_players_words(
    page: Page, operator_password: str
) -> None:
    """Point 6: a bet that races the suspension is told without the table id or the
    operator's reason (the server's refusal goes through the page's playerText)."""
    open_table(page, "war-standard")
    operator_session(page, operator_password)
    r = page.request.post("/api/operator/tables/war-standard/suspend", data={"reason": "jam"})
    assert r.ok
    refused = page.evaluate(
        """async () => { try { await Croupier.api('POST', '/api/tables/war-standard/actions',
                 {seat: 0, kind: 'place-bet', bet: 'main', amount: 500}); return null; }
               catch (e) { return { code: e.code, message: e.message, said: playerText(e) }; } }"""
    )
    assert refused["code"] == "table-suspended" and "jam" in refused["message"]
    assert refused["said"].startswith("Table closed for a moment")
    assert "war-standard" not in refused["said"] and "admin" not in refused["said"]
