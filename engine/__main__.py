"""``python -m railspec`` runs the command line."""
import sys

from .tools.cli import main

sys.exit(main())
