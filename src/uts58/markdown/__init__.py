"""The Markdown adapters: the markdown-it-py plugin (``markdown_it``), the Python-Markdown extension
(``extensions=["uts58.markdown.python_markdown"]``) and the mistune plugin (``mistune``)."""
