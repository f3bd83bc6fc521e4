"""The command line, ``uts58``: the parser and commands (``main``), files and streams (``io``), the
``detect``, ``format`` and ``info`` commands, and the playground's server (``serve``, ``playground``)."""
