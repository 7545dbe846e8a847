"""SET PLAYERS n (njudge): on a forming game, the master picks the variant of the game's
map for n players (maps/standard-6.toml and the others: neutral powers, or several
powers to a player). njudge sets a number; here the number chooses a variant.
"""

from __future__ import annotations

from judge.commands.blocks import start_if_full
from judge.commands.language import Command
from judge.commands.run import Run, need_master, refuse
from judge.engine.geography import GameMap, MapError
from judge.store import games
from judge.variants.maps import load_map, map_names


def set_players(run: Run, cmd: Command) -> None:
    """SET PLAYERS n: the game becomes its map's variant for n players (and starts if as
    many have joined); a number with no variant is refused, naming those there are."""
    block = need_master(run, cmd)
    if not block:
        return
    game = block.game
    if game.state != games.FORMING:
        run.event("not_now", cmd, game=game.name)
        return
    written = cmd.args[0].strip()
    family = variants_by_players(game.variant)
    number = written.isascii() and written.isdigit() and len(written) <= 3  # int() is safe
    if not number or int(written) not in family:
        refuse(run, cmd, "players_none", written=written[:20], counts=sorted(family))
        return
    wanted = int(written)
    # Two variants for three players (the rulebook's two pairings): the first, unless
    # the game is already the other.
    choices = family[wanted]
    variant = game.variant if game.variant in choices else choices[0]
    joined = len(games.seats(run.ctx.db, game, games.PLAYER))
    if joined > wanted:
        refuse(run, cmd, "players_joined", game=game.name, joined=joined, wanted=wanted)
        return
    block.game = games.update_game(run.ctx.db, game, run.ctx.now, variant=variant)
    others = [name for name in choices if name != variant]
    run.event("players", cmd, game=game.name, variant=variant, wanted=wanted, others=others)
    start_if_full(run, block.game)


def variants_by_players(variant: str) -> dict[int, list[str]]:
    """The variants a game of `variant` may become, by number of players, names sorted:
    its map (the variant's base when it is itself for fewer players) and that map's
    variants for fewer players."""
    gm = load_map(variant)
    root = gm.base if gm.base and _fewer(gm) else variant
    out: dict[int, list[str]] = {len(load_map(root).players()): [root]}
    for name in sorted(map_names()):
        try:
            other = load_map(name)
        except MapError:  # an operator's broken map file: not one to choose
            continue
        if other.base == root and _fewer(other):
            out.setdefault(len(other.players()), []).append(name)
    return out


def _fewer(gm: GameMap) -> bool:
    """Whether the map is played by fewer players than it has powers."""
    return len(gm.players()) < len(gm.powers)
