"""``kubectl instancetype suggest``: hand-sized VirtualMachines turned into ones naming an instancetype and a
preference, with the proof that their expansion is unchanged.

:mod:`.engine` decides one VM (:mod:`.instancetypes`, then :mod:`.preferences`, each over the
:mod:`.candidates` in scope, guided by :mod:`.hints`), :mod:`.proof` renders and compares, :mod:`.run` goes
over a run's documents, :mod:`.report` words the outcome and :mod:`.text` rewrites the files.
"""

from .engine import APPROXIMATE, EXACT, LEFT_ALONE, NOTHING, Suggestion, suggest
from .proof import Scope
from .run import Outcome, outcomes

__all__ = ["APPROXIMATE", "EXACT", "LEFT_ALONE", "NOTHING", "Outcome", "Scope", "Suggestion", "outcomes", "suggest"]
