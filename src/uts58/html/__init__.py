"""Links in HTML: ``linkify_html`` (``linkify``), the text of HTML source as its reader sees it
(``text``, ``textview``), raw-HTML scanning (``raw``), and the bounds and checks of D40."""
