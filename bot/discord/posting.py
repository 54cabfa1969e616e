"""What a member is told when Discord refuses to show the table their click changed:
:class:`TableNotShown` (the refused edit and post) and :func:`posted_anew`, in the
member's language."""

from __future__ import annotations

import discord

from bot.discord.errors import why_not_edited, why_not_posted
from bot.i18n import translate


class TableNotShown(Exception):
    """Discord refused the in-place edit of a game's table (``edit``) and then the table
    posted as a new message (``post``; ``None`` when no post was tried: the thread itself
    refused the edit)."""

    def __init__(self, edit: discord.HTTPException, post: discord.HTTPException | None):
        super().__init__(f"edit refused: {edit}; post: {post}")
        self.edit = edit
        self.post = post

    def clause(self, lang: str | None = None) -> str:
        """What was not done, for the member, in ``lang``: "I could not edit the table in
        the game's thread (the message was deleted) or post it anew (it is locked)"."""
        edit = why_not_edited(self.edit, lang)
        if self.post is None:
            return translate(lang, "I could not edit the table in the game's thread ({why})",
                             why=edit)
        post = why_not_posted(self.post, lang)
        if post == edit:
            return translate(lang, "I could not edit the table in the game's thread or post "
                             "it anew ({why})", why=edit)
        return translate(lang, "I could not edit the table in the game's thread ({why}) or "
                         "post it anew ({why_post})", why=edit, why_post=post)


def posted_anew(refused: discord.HTTPException, lang: str | None = None,
                panel: str | None = None) -> str:
    """The sentence in ``lang`` for the member whose click changed a table (or the panel
    named ``panel``, already in ``lang``) Discord would not edit (``refused``), posted as a
    new message instead."""
    why = why_not_edited(refused, lang)
    if panel is None:
        return translate(lang, "Your move was made. I could not edit the table in the game's "
                         "thread ({why}), so I posted it anew.", why=why)
    return translate(lang, "Your move was made. I could not edit {panel} in the game's "
                     "thread ({why}), so I posted it anew.", panel=panel, why=why)
