"""LotE Modern Era 7.6: mercantile construction, where a Merchant House may build what.

Offers: `BuildKind`, `check_house_build`.
"""

from __future__ import annotations

from typing import Literal

BuildKind = Literal["unit", "yard-unit", "export", "railroad"]
_CARTEL = {"yard-unit": "the units its own yard or factory builds", "export": "export munitions",
           "railroad": "railroads"}


def check_house_build(kind: BuildKind, *, at_home_office: bool = False, friendly_city_in_hbz: bool = False,
                      cartel_city: bool = False, industry_site: bool = False,
                      yard_builds_this: bool = False) -> list[str]:
    """LotE 7.6: why a House may not build this here (empty when it may; capacity and costs are checked apart).

    `kind`: a regular unit for the House itself, an airship/steamship/submarine from a specific yard, an
    export unit, or a railroad. `industry_site`: a Mercantile Industry site (or other factory or yard) stands
    in the city; `yard_builds_this`: the city's specific yard builds this kind of unit.
    """
    if at_home_office or friendly_city_in_hbz:
        if kind == "yard-unit" and not yard_builds_this:
            return ["no yard here builds that kind of unit"]
        return []
    if not cartel_city:
        return ["a House builds at its Home Office, a Friendly city in its Homeland Build Zone, "
                "or a Cartel City with a Mercantile Industry site"]
    if kind == "unit":
        return ["units for the House's own use are built within its Homeland Build Zone"]
    if not industry_site:
        return [f"a Cartel City builds {_CARTEL[kind]} only with a Mercantile Industry site, factory or yard"]
    if kind == "yard-unit" and not yard_builds_this:
        return ["no yard here builds that kind of unit"]
    return []
