"""Tournament rule sets as data: one TOML file per set, every value citing its rule.

``load_ruleset("jbl")`` gives a frozen ``RuleSet``; ``with_overrides(rules, {"clock.delay_s": 10})``
gives the director's variant for an event, recording what was changed. ``rules.rule(key)`` is the
citation for a dotted key (``"JBL 3.4.5"``).
"""

from kiosk.rulesets.loader import (
    RULESET_NAMES,
    UnknownRuleSetError,
    load_ruleset,
    parse_ruleset,
    with_overrides,
)
from kiosk.rulesets.schema import (
    BreakRules,
    CentreReason,
    CentringRules,
    ClockRules,
    ConcessionRules,
    CubeRules,
    ExpiryRules,
    LateArrivalRules,
    Override,
    PlayRules,
    ReserveRules,
    RuleSet,
    RuleSetError,
)

__all__ = [
    "RULESET_NAMES",
    "BreakRules",
    "CentreReason",
    "CentringRules",
    "ClockRules",
    "ConcessionRules",
    "CubeRules",
    "ExpiryRules",
    "LateArrivalRules",
    "Override",
    "PlayRules",
    "ReserveRules",
    "RuleSet",
    "RuleSetError",
    "UnknownRuleSetError",
    "load_ruleset",
    "parse_ruleset",
    "with_overrides",
]
