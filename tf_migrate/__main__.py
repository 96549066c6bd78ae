"""``python -m tf_migrate``."""
import sys

from tf_migrate.cli import main

sys.exit(main())
