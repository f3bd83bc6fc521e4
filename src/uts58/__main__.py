"""``python -m uts58`` runs the command line."""

import sys

from .cli.main import main

sys.exit(main())
