"""League pages, one module per audience: `public` (what anyone allowed may read), `players` (a signed-in
player's own pages), `manage` (organisers' forms)."""

from league.views.players import home_page, my_player, player_page
from league.views.public import league_list_page, league_page

__all__ = ["home_page", "league_list_page", "league_page", "my_player", "player_page"]
