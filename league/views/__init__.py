"""League pages, one module per audience: `public` (what anyone allowed may read), `players` (a signed-in
player's own pages), `manage` (organisers' forms)."""

from league.views.public import league_list_page, league_page

__all__ = ["league_list_page", "league_page"]
