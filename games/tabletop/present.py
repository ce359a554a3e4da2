"""What a viewer sees of a real-cards table: the same public view for everyone (pots, stacks, bets, whose turn),
plus the buttons this viewer may press (their own seat's legal choices; everything for the host).

Built from the engine's spectator view and `due(game)`: no card is ever held by the site before the reveal, and
the master seed of the site's rolls appears only once the table is finished.
"""

from collections import Counter
from typing import Any

from games import words
from games.engine.between_hands import MAX_SEATS
from games.engine.dice import GOLD_FACES, SILVER_FACES
from games.engine.realcards.due import due
from games.engine.realcards.explain import explain_hand
from games.engine.realcards.game import RealCardsGame
from games.engine.realcards.unknown import NeedCard, NeedDice
from games.history import pots_in_play
from games.tabletop import tournament_hands
from games.tabletop.cache import per_version, shown_game
from games.tabletop.models import RealSeat, RealTable, RealTableStatus, hands_dealt
from games.tabletop.permissions import step_owner
from games.tabletop.seeds import commitment_now
from games.tabletop.services import hand_dealer, takes_newcomers

VERB_WORDS = {
    "check": "Check",
    "call": "Call",
    "bet": "Bet",
    "raise": "Raise to",
    "fold": "Fold",
    "allin": "All in",
    "select": "Select",
    "stand": "Stand",
    "draw": "Draw",
    "trade": "Trade",
    "buy": "Buy",
    "junk": "Junk",
}
SOURCE_WORDS = {"deck": "from the draw pile", "pilot": "from the discard pile", "discard": "from the discard pile"}


def _verb_word(verb: str) -> str:
    return VERB_WORDS.get(verb, verb.replace("_", " ").capitalize())


PLAY_VERBS = ("draw", "trade", "stand")
CALLING_VERBS = ("check", "call", "bet", "raise", "allin")


def _play_flags(verb: str, choices: dict) -> list[dict]:
    """Classic's play turn at a real table: lock and unlock are yes or no (which card is the player's business)."""
    flags = []
    if choices.get("unlockable_count"):
        flags.append({"name": "unlock", "label": "first unlock a card from my interference field"})
    if choices.get("lockable_count") or (verb != "stand" and "lockable_count" in choices):
        taken = "the card I take" if verb != "stand" else "a card I hold"
        flags.append({"name": "lock", "label": f"lock {taken} into my interference field"})
    return flags


# Coruscant Shift's "select" step at a real table sends only a count: how many of the cards in the player's hand
# go into their selection (the select phase: the rest are swapped in the shift) or how many of the cards dealt in
# the shift join it (the improve phase: the rest are thrown away). The words name that effect, never "keep".
SELECT_WORDS = {
    "select": (
        "How many of your {most} cards go into your selection? The others are swapped in the shift (0 to {most})",
        "Put them in my selection",
    ),
    "improve": (
        "How many of the {most} new cards do you add to your selection? The others are thrown away (0 to {most})",
        "Add them to my selection",
    ),
}


def buttons(choices: dict, phase: str | None = None) -> list[dict]:
    """The legal choices of one seat as the page's buttons: each a verb, its words and what it sends (Classic's
    lock and unlock as boxes on its play buttons; calling the hand as buttons of its own, beside the plain ones).
    `phase`: the hand's, which names what a selection's count does."""
    rows = _plain_buttons(choices, phase)
    for row in rows:
        if row["verb"] in PLAY_VERBS and "lockable_count" in choices:
            row["flags"] = _play_flags(row["verb"], choices)
    if choices.get("can_call_hand"):
        calling = [
            {**row, "call_hand": True, "label": f"{row['label']} and call the hand"}
            for row in rows
            if row["verb"] in CALLING_VERBS
        ]
        rows = rows + calling
    return rows


def _plain_buttons(choices: dict, phase: str | None = None) -> list[dict]:
    rows = []
    for verb in choices.get("verbs", []):
        word = _verb_word(verb)
        if verb in ("bet", "raise"):
            low = choices.get("min_bet" if verb == "bet" else "min_raise_to")
            high = choices.get("max_bet" if verb == "bet" else "max_raise_to")
            rows.append({"verb": verb, "label": word, "amount": {"min": low, "max": high}})
        elif verb == "select" and "count" in choices:
            low, high = choices["count"]
            says, label = SELECT_WORDS["improve" if phase == "improve" else "select"]
            count = {"min": low, "max": high}
            rows.append({"verb": verb, "label": label, "count": count, "says": says.format(most=high)})
        elif f"{verb}_from" in choices:
            for source, price in choices[f"{verb}_from"].items():
                cost = f" ({words.price_words(price)})" if price else ""
                rows.append(
                    {"verb": verb, "label": f"{word} {SOURCE_WORDS.get(source, source)}{cost}", "source": source}
                )
        elif verb == "call" and choices.get("call_amount") is not None:
            rows.append({"verb": verb, "label": f"Call {choices['call_amount']}"})
        elif verb == "allin" and choices.get("all_in_amount") is not None:
            rows.append({"verb": verb, "label": f"All in ({choices['all_in_amount']})"})
        elif verb == "draw" and choices.get("draw_cost"):
            rows.append({"verb": verb, "label": f"Draw ({words.price_words(choices['draw_cost'])})"})
        else:
            rows.append({"verb": verb, "label": word})
    return rows


def site_roll_words(game: RealCardsGame, roller: str) -> str:
    """The roll due at a table without dice: nobody rolls, the roller (or the host) has the site roll. The engine's
    words ("roll the gold and silver dice … (or let the site roll)") are for a table with its own dice."""
    rolled = game.table.dice_words.removeprefix("roll ")
    return f'no dice at this table: {roller} taps "Roll for us" and the site rolls {rolled}'


def deck_picture(game: RealCardsGame, variant: str, *, leaving: tuple = ()) -> list[dict]:
    """Every card of the deck once per copy, each marked `shown` when this hand already shows all its copies
    (apart from the places in `leaving`: the cards a correction replaces)."""
    hand = game.game.hand
    number = hand.number if hand is not None else 0
    board = game.boards.get(number, {})
    shown = Counter(card.code for slot, card in board.items() if slot not in leaving)
    rows, seen = [], Counter()
    for card in game.base.deck():
        seen[card.code] += 1
        rows.append(
            {
                "code": card.code,
                "copy": seen[card.code],
                "label": words.card_name(card.code, variant),
                "shown": seen[card.code] <= shown[card.code],
            }
        )
    return rows


def _log(table: RealTable, names: list[str]) -> list[str]:
    lines = []
    for change in table.changes:
        if "claimed" in change:  # a seat taken over by a phone from its hand-over link
            claimed = change["claimed"]
            lines.append(f"{change.get('by', '?')}: took {claimed.get('name')}'s seat from its hand-over link")
            continue
        undid = "undid" in change
        step = change.get("undid") if undid else change.get("did")
        text = step_words(step, names, table.variant)
        if change.get("auto") and not undid:  # a selection with nothing to choose, taken by the table itself
            seat = step.get("seat")
            name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}"
            text = f"{name} was dealt no new card, so has none to add (skipped)"
        lines.append(f"{change.get('by', '?')}: {'took back: ' if undid else ''}{text}")
    return lines


def step_words(step: dict, names: list[str], variant: str) -> str:
    """A step in words, for the hand's log."""
    kind = step.get("step")

    def name(seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(names):
            return names[seat]
        return f"seat {seat + 1}" if isinstance(seat, int) else f"seat {seat}"  # seats are 1 to n for people

    if kind == "deal":
        return "dealt the next hand"
    if kind == "dice":
        by = "the site rolled" if step.get("by") == "site" else "rolled"
        dice = step.get("dice")
        if isinstance(dice, dict):
            shown = f"{words.signed_number(dice.get('number', 0))} {dice.get('suit', '')}"
        else:
            shown = " and ".join(str(d) for d in dice or [])
        return f"{by} {shown}".strip()
    if kind == "act" and step.get("verb") == "select":
        count = step.get("count")
        cards = f"{count} card{'' if count == 1 else 's'}" if isinstance(count, int) else "cards"
        return f"{name(step.get('seat'))}: put {cards} in their selection"
    if kind == "act":
        extra = ""
        for key in ("amount", "count"):
            if key in step:
                extra = f" {step[key]}"
        if "source" in step:
            extra += f" {SOURCE_WORDS.get(step['source'], step['source'])}"
        return f"{name(step.get('seat'))}: {_verb_word(step.get('verb', '')).lower()}{extra}"
    if kind == "reveal":
        return f"{name(step.get('seat'))} showed {words.cards_words(step.get('cards', []), variant)}"
    if kind == "card":
        return f"turned over {words.card_name(step.get('card'), variant)}"
    if kind == "winners":
        pot = "the Sabacc pot" if step.get("pot") == "sabacc" else pot_name(step.get("pot", 0)).lower()
        who = " and ".join(name(s) for s in step.get("seats", [])) or "nobody"
        return f"named {who} for {pot}"
    return _between_words(kind, step, name)


# The between-hands steps told in one sentence: `{who}` is the seat's name, the rest are the step's own fields.
_BETWEEN_SENTENCES = {
    "rebuy": "{who} re-bought {amount} credits",
    "add_on": "{who} added on {amount} credits",
    "join": "seated {name} with {stack} credits",
    "leave": "{who} left the table with their stack",
    "close": "closed the table",
    "leftovers": "paid out what was left in the pots",
}


def _between_words(kind: Any, step: dict, name: Any) -> str:
    """A between-hands step in words (the host's forms, a tournament's chips)."""
    if kind == "levels":
        parts = [f"ante {step.get('ante', 0)}"]
        if step.get("big_blind"):
            parts.append(f"blinds {step.get('small_blind', 0)}/{step['big_blind']}")
        if step.get("min_bet"):
            parts.append(f"min bet {step['min_bet']}")
        return "set the levels from the next hand: " + ", ".join(parts)
    sentence = _BETWEEN_SENTENCES.get(kind) if isinstance(kind, str) else None
    if sentence is None:
        return str(kind)
    fields = {key: step.get(key) for key in ("amount", "name", "stack")}
    return sentence.format(who=name(step.get("seat")), **fields)


def pot_name(index: Any) -> str:
    """A pot as every real-cards page calls it: pots are numbered from 1 for people (the API's `pot` stays the
    engine's index from 0), as the engine's `explain_hand` says them; the first is the main pot."""
    return f"Pot {index + 1}" if isinstance(index, int) else f"Pot {index}"


def in_words(text: str, variant: str) -> str:
    """The engine's sentence with its card codes in words ("+9c" -> "+9 circle")."""
    pattern = words.code_patterns()["card code"]
    return pattern.sub(lambda found: words.card_name(found.group(0).replace(words.MINUS, "-"), variant), text)


def public_view(game: RealCardsGame) -> dict:
    """The engine's spectator view; while the hand waits for its roll (a variant's public fields read the dice)
    the same from what needs no roll: stacks, who is in, each seat's bet and what it has put in, the pots. The
    contributions are what `pots_in_play` cuts the pots from, so the pots read the same at the roll as after it."""
    try:
        return game.game.spectator_view()
    except (NeedDice, NeedCard):
        pass
    engine, hand = game.game, game.game.hand
    bets = hand.bets()
    players = []
    for seat, name in enumerate(engine.names):
        row = {"seat": seat, "name": name, "stack": engine.stacks[seat]}
        if seat in hand.seats:  # as the engine's view: a seat not dealt in has no fields of the hand
            folded = seat in hand.folded
            row.update(
                in_hand=not folded,
                folded=folded,
                all_in=not folded and engine.stacks[seat] == 0,
                bet=bets.get(seat, 0),
                contributed=hand.contributions.get(seat, 0),
            )
        players.append(row)
    pots = [{"amount": p.amount, "eligible": list(p.eligible)} for p in hand.pots()]
    return {
        "players": players,
        "carry_over": engine.carry,
        "waiting_for": [],
        "hand": {"number": hand.number, "phase": hand.phase, "dealer": hand.dealer, "pots": pots},
    }


def _levels(game: RealCardsGame) -> dict:
    """The forced bets of the hand in play (or of the next hand: a tournament's new level shows once dealt)."""
    hand = game.game.hand
    levels = hand.levels if hand is not None and not hand.is_complete else game.game.levels
    return {"ante": levels.ante, "small_blind": levels.small_blind, "big_blind": levels.big_blind}


def table_view(table: RealTable, *, host: bool, mine: RealSeat | None) -> dict:
    """The table as this viewer sees it: public for all, with the buttons of the steps this viewer may take."""
    seats = list(table.seats.all())
    data: dict[str, Any] = {
        "code": table.code,
        "status": table.status,
        "version": table.version,
        "variant": table.variant,
        "preset": table.preset,
        "rules": words.rules_title(table.variant, table.preset),
        "starting_credits": table.starting_credits,
        "has_dice": table.has_dice,
        "tournament_table": table.tournament_table,  # a tournament's physical table: its chips are the tournament's
        "host": host,
        "you": mine.number if mine is not None else None,
        # A league player seated without an account is no guest: only a casual table seats guests.
        "seats": [
            {
                "number": s.number,
                "name": s.name,
                "guest": s.user_id is None and s.player_id is None,
                "held": s.user_id is not None or bool(s.guest_token),
                # The seat's one-time hand-over link secret: the host's alone (a phone takes the seat with it).
                **({"handover": s.handover} if host and s.handover and not (s.user_id or s.guest_token) else {}),
            }
            for s in seats
        ],
        "league": table.event_id is not None,
    }
    if table.status == RealTableStatus.OPEN or table.setup is None:
        return data
    game = shown_game(table)  # shared with the other readers of this version: only read it
    names = list(game.game.names)  # a player who joined mid-game is in the engine's names, not the setup's
    view = public_view(game)
    hand = view.get("hand") or {}
    now = due(game)
    if table.status == RealTableStatus.FINISHED and now["due"] != "game_over":
        # The host ended the game between hands: it is over, whatever the engine would deal next.
        now = {"due": "game_over", "standings": game.game.standings(), "says": "the game is over: its host ended it"}
    dealer = hand_dealer(game)
    players = []
    waiting = set(view.get("waiting_for", []))
    for row in view["players"]:
        players.append(
            {
                "seat": row["seat"],
                "name": row["name"],
                "stack": row["stack"],
                "bet": row.get("bet", 0),
                "in_hand": row.get("in_hand", False),
                "folded": row.get("folded", False),
                "all_in": row.get("all_in", False),
                "out": row.get("out", False),
                "dealer": dealer == row["seat"],
                "waiting": row["seat"] in waiting,
                "you": mine is not None and mine.number == row["seat"],
            }
        )
    pots = pots_in_play(view)  # an uncalled bet is a bet, not a side pot, as at an online table
    current_bet = max((p["bet"] for p in players), default=0)
    prompt = {"due": now["due"], "says": now["says"]}
    if now["due"] == "act":
        prompt["seats"] = []
        for seat in now["seats"]:
            owners = step_owner(now, {"step": "act", "seat": seat}, dealer)
            mayact = host or (mine is not None and mine.number in owners)
            prompt["seats"].append(
                {
                    "seat": seat,
                    "name": names[seat],
                    "buttons": buttons(now["choices"][seat], now.get("phase")) if mayact else [],
                    "choices": now["choices"][seat] if mayact else None,
                }
            )
    elif now["due"] in ("deal", "dice", "card", "winners", "reveal"):
        probe = {"deal": {"step": "deal"}, "dice": {"step": "dice"}, "card": {"step": "card"}}.get(
            now["due"], {"step": now["due"]}
        )
        owners = step_owner(now, probe, dealer)
        prompt["may"] = host or (mine is not None and mine.number in owners)
        if now["due"] == "reveal":
            for row in now["seats"]:
                row["may"] = host or (mine is not None and mine.number in {row["seat"], dealer})
            prompt["seats"] = now["seats"]
            prompt["or_name_winners"] = [
                {**pot, "names": [(s, names[s]) for s in pot["eligible"]]} for pot in now.get("or_name_winners", [])
            ]
            prompt["deck"] = deck_picture(game, table.variant)
        elif now["due"] == "winners":
            left = [pot_name(pot["pot"]).lower() for pot in now.get("pots", []) if pot.get("pot") != "sabacc"]
            prompt["says"] = "name the winners of " + (", ".join(left) or "the Sabacc pot")  # pots from 1
            prompt["pots"] = [
                {**pot, "names": [(s, names[s]) for s in pot.get("eligible", [])]} for pot in now.get("pots", [])
            ]
        elif now["due"] == "card":
            prompt["deck"] = deck_picture(game, table.variant)
        elif now["due"] == "dice":
            prompt["site_only"] = not table.has_dice
            if not table.has_dice:
                prompt["says"] = site_roll_words(game, names[now["roller"]])
            if table.variant == "coruscant_shift":
                prompt["gold"] = [(face, words.signed_number(face)) for face in sorted(set(GOLD_FACES))]
                prompt["silver"] = list(SILVER_FACES)
    elif now["due"] == "game_over":
        prompt["standings"] = now["standings"]
    if now["due"] == "deal" and game.game.hand is not None and (host or (mine is not None and mine.number == dealer)):
        # Until the next deal a hand shown may be entered again: the pots are paid again.
        shown = game.shown.get(game.game.hand.number, {})
        prompt["corrections"] = [
            {
                "seat": seat,
                "player": names[seat],
                "cards": len(slots),
                "deck": deck_picture(game, table.variant, leaving=tuple(slots)),
            }
            for seat, slots in shown.items()
            if isinstance(seat, int)
        ]
    if host and now["due"] in ("deal", "between_hands") and table.status == RealTableStatus.PLAYING:
        prompt["between"] = between_hands(game, league=table.event_id is not None)
    if now["due"] in ("deal", "between_hands") and table.status == RealTableStatus.PLAYING:
        prompt["tournament"] = tournament_hands.notes(table, game)  # re-buys on their way, players who may re-buy
    # While the dice are due the engine is still in the phase before the roll: the page names the roll.
    if now["due"] == "dice" and hand.get("phase"):
        phase_shown = words.roll_title(table.variant, hand.get("phase"))
    else:
        phase_shown = words.phase_title(table.variant, hand.get("phase")) if hand.get("phase") else ""
    # The Bet column shows the bets in front of the players: during a betting round, and at the roll after one
    # (its bets still there); before any bet (a Coruscant roll right after the deal, the card turns) it means nothing.
    betting = now["due"] == "act" and any(
        verb in CALLING_VERBS for seat in now["seats"] for verb in now["choices"][seat].get("verbs", ())
    )
    results = game.results()
    explained = []
    if results:
        last = results[-1]["number"]
        explained = [in_words(row["says"], table.variant) for row in explain_hand(game, last)]
    data.update(
        {
            "hand": {
                "number": hand.get("number"),
                "phase": phase_shown,
                "target": hand.get("target"),
                "suit": hand.get("suit"),
            },
            "players": players,
            "pots": [{"amount": p["amount"], "eligible": [names[s] for s in p["eligible"]]} for p in pots],
            "carry_over": view.get("carry_over", 0),
            "current_bet": current_bet if now["due"] == "act" else 0,  # nothing to match at a roll or a reveal
            "bets_shown": betting or any(p["bet"] for p in players),
            "prompt": prompt,
            "explained": explained,
            "explained_hand": results[-1]["number"] if results else None,
            "log": per_version(table, "log", lambda: _log(table, names)),
            "can_undo": host and bool(game.steps) and table.status == RealTableStatus.PLAYING,
            # A table closed before its first deal has nothing to download or replay: no link to a refusal.
            "hands_dealt": hands_dealt(game.steps),
            "total_credits": game.game.total_credits(),
            "levels": _levels(game),
        }
    )
    data["takes_newcomers"] = table.status == RealTableStatus.PLAYING and takes_newcomers(table, game)
    # The SHA-256 of the seed of the hand in play (or of the next hand), public before any roll the site makes.
    data["commitment"] = commitment_now(table, game)
    if table.status == RealTableStatus.FINISHED:
        data["seed"] = table.master  # the game is over: anyone may check the site's rolls now
    return data


def between_hands(game: RealCardsGame, *, league: bool = False) -> dict:
    """What the host may do between hands, as the engine allows it now (the same verify runs again on the step):
    new levels always; re-buys, add-ons, joining, leaving, closing and paying out only where the rules have them,
    never at a league or tournament table (its players and chips are the league's or the tournament's)."""
    engine = game.game
    options = engine.options
    levels = engine.levels
    seated = [(seat, name) for seat, name in enumerate(engine.names) if seat not in engine.left]
    cash = getattr(options, "end_rule", "") == "never" and not league
    rebuys, add_ons = (getattr(options, name, False) and not league for name in ("rebuys", "add_ons"))
    return {
        "levels": {
            "ante": levels.ante,
            "small_blind": levels.small_blind,
            "big_blind": levels.big_blind,
            "min_bet": levels.min_bet,
            "blinds": bool(engine.variant.has_blinds),
        },
        "rebuy": [(s, n) for s, n in seated if engine.stacks[s] == 0] if rebuys else [],
        "add_on": [(s, n) for s, n in seated if engine.stacks[s] > 0] if add_ons else [],
        "join": cash and len(seated) < MAX_SEATS,
        "leave": seated if cash else [],
        "close": not league and engine.can_close_table(),
        "leftovers": not league and engine.can_pay_leftovers(),
        "starting": options.starting_stack,
    }


def screen_view(table: RealTable) -> dict:
    """The big-screen view: only what everyone at the table may see (the view of a spectator with no seat, no
    buttons, no log of who tapped what); the seed only once the game is over, as on every page."""
    data = table_view(table, host=False, mine=None)
    prompt = data.get("prompt") or {}
    data["prompt"] = {key: prompt[key] for key in ("due", "says", "standings") if key in prompt}
    if prompt.get("due") == "act":
        data["prompt"]["seats"] = [{"seat": row["seat"], "name": row["name"]} for row in prompt.get("seats", [])]
    data.pop("log", None)
    data["host"] = False
    return data
