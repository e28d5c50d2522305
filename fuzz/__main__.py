"""``python -m fuzz``: run the campaign (options: ``python -m fuzz --help``)."""
import sys

from .campaign import main

sys.exit(main())
