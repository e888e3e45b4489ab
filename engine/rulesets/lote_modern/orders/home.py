"""Orders for a nation's own land (LotE 3, 4): investments, builds and reserves, R&D, construction projects,
colonies and cities. Each reads its own line (`parse`) as its `text()` writes it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.core.errors import OrderError
from engine.rulesets.lote_modern.grammar import (
    OrderKind,
    Reader,
    amounts_text,
    name,
    unit_code,
    unit_text,
    whole,
)
from engine.rulesets.lote_modern.sheet import QR_KINDS
from engine.rulesets.lote_modern.text import is_number, number

INVEST_RATINGS = (*QR_KINDS, "navigation", "trade-range", "conduit-limit")
INVEST_OTHER = ("government", "infrastructure", "intel", "religion", "university", "agriculture", "isi")
FACTORY_ORDERS = {"airship-factory": "airship", "steamship-yard": "steamship", "submarine-yard": "submarine",
                  "mercantile-industry": "industry"}


@dataclass(frozen=True, slots=True)
class Invest(OrderKind):
    """``invest artillery 40gp`` / ``invest public-works Sussex 20gp`` / ``invest bank 50gp``."""

    verbs: ClassVar[tuple[str, ...]] = ("invest",)

    target: str
    gp: float
    place: str = ""

    @classmethod
    def read(cls, line: Reader, verb: str) -> Invest:
        target = line.take("what to invest in").lower()
        place = ""
        if target == "public-works":
            place = line.name_until("gp", what="a region or city")
        elif target not in (*INVEST_RATINGS, "bank", *INVEST_OTHER):
            raise OrderError(f"`{target}` is not something to invest in ({', '.join((*INVEST_RATINGS, 'bank'))}, "
                             f"public-works <place>, or {', '.join(INVEST_OTHER)})")
        amounts = line.amounts()
        if set(amounts) != {"gp"} or amounts["gp"] <= 0:
            raise OrderError("an investment is an amount of gold, like 40gp")
        return cls(target, amounts["gp"], place)

    def text(self) -> str:
        where = f" {name(self.place)}" if self.place else ""
        return f"invest {self.target}{where} {number(self.gp)}gp"


@dataclass(frozen=True, slots=True)
class Build(OrderKind):
    """``build 10 i at London`` / ``build 4 (ha) at London`` (export) / ``build 5 i at London reserve``."""

    verbs: ClassVar[tuple[str, ...]] = ("build",)

    count: int
    code: str
    place: str
    export: bool = False
    reserve: bool = False

    @classmethod
    def read(cls, line: Reader, verb: str) -> Build:
        count = line.count("how many units")
        code, export = unit_code(line.take("a unit code"))
        line.word("at")
        place = line.name_until("reserve", what="where to build")
        reserve = line.optional("reserve")
        if reserve and export:
            raise OrderError("export units are not built as reserves")
        return cls(count, code, place, export, reserve)

    def text(self) -> str:
        tail = " reserve" if self.reserve else ""
        return f"build {self.count} {unit_text(self.code, self.export)} at {name(self.place)}{tail}"


@dataclass(frozen=True, slots=True)
class PlaceReserve(OrderKind):
    """``reserve 5 i from "Home Army"``: put units that began the turn in a city into reserve (3.2.2.2)."""

    verbs: ClassVar[tuple[str, ...]] = ("reserve",)

    count: int
    code: str
    army: str

    @classmethod
    def read(cls, line: Reader, verb: str) -> PlaceReserve:
        count = line.count("how many units")
        code, export = unit_code(line.take("a unit code"))
        if export:
            raise OrderError("export units are not placed in reserve")
        line.word("from")
        return cls(count, code, line.name_until(what="an army", known=line.names.armies))

    def text(self) -> str:
        return f"reserve {self.count} {self.code} from {name(self.army)}"


@dataclass(frozen=True, slots=True)
class Activate(OrderKind):
    """``activate 5 i at London``: call reserves up in a Friendly city of the HBZ (3.2.2.3)."""

    verbs: ClassVar[tuple[str, ...]] = ("activate",)

    count: int
    code: str
    place: str

    @classmethod
    def read(cls, line: Reader, verb: str) -> Activate:
        count = line.count("how many units")
        code, export = unit_code(line.take("a unit code"))
        if export:
            raise OrderError("export units are not held in reserve")
        line.word("at")
        return cls(count, code, line.name_until(what="a city"))

    def text(self) -> str:
        return f"activate {self.count} {self.code} at {name(self.place)}"


@dataclass(frozen=True, slots=True)
class Research(OrderKind):
    """``research steamships 100gp 2nfp at London`` (the place only when starting, LotE 4)."""

    verbs: ClassVar[tuple[str, ...]] = ("research",)

    project: str
    gp: float
    nfp: int
    place: str = ""

    @classmethod
    def read(cls, line: Reader, verb: str) -> Research:
        project = line.name_until("at", what="an R&D project", known=line.names.projects)
        amounts = line.amounts()
        if not set(amounts) <= {"gp", "nfp"} or not amounts:
            raise OrderError("give the GP and NFP to invest, like 100gp 2nfp")
        place = line.name_until(what="the project's location") if line.optional("at") else ""
        return cls(project, amounts.get("gp", 0.0), whole(amounts.get("nfp", 0), "nfp"), place)

    def text(self) -> str:
        where = f" at {name(self.place)}" if self.place else ""
        return f"research {name(self.project)} {amounts_text(self.gp, self.nfp)}{where}".replace("  ", " ")


@dataclass(frozen=True, slots=True)
class Construct(OrderKind):
    """``construct steamship-yard 2 at Portsmouth [hidden]``, ``construct railroad Sussex to Kent [2 levels]``,
    ``construct uwm``."""

    verbs: ClassVar[tuple[str, ...]] = ("construct",)

    kind: str
    points: int = 1
    place: str = ""
    to: str = ""
    hidden: bool = False

    @classmethod
    def read(cls, line: Reader, verb: str) -> Construct:
        kind = line.take("what to construct").lower()
        if kind == "uwm":
            return cls("uwm")
        if kind == "railroad":
            levels = 1
            if len(line.toks) >= 2 and line.toks[-1].lower() == "levels":
                if not is_number(line.toks[-2]) or int(float(line.toks[-2])) < 1:
                    raise OrderError("write the capacity as a whole number of levels, like 2 levels")
                levels = int(float(line.toks[-2]))
                line.toks = line.toks[:-2]
            a = line.name_until("to", what="a region")
            line.word("to")
            b = line.name_until(what="a region")
            return cls("railroad", levels, a, b)
        if kind not in FACTORY_ORDERS:
            raise OrderError(f"`{kind}` is not something to construct ({', '.join(FACTORY_ORDERS)}, railroad, uwm)")
        points = line.count("how many points")
        line.word("at")
        place = line.name_until("hidden", what="where to build it")
        return cls(kind, points, place, hidden=line.optional("hidden"))

    def text(self) -> str:
        if self.kind == "uwm":
            return "construct uwm"
        if self.kind == "railroad":
            levels = f" {self.points} levels" if self.points != 1 else ""
            return f"construct railroad {name(self.place)} to {name(self.to)}{levels}"
        tail = " hidden" if self.hidden else ""
        return f"construct {self.kind} {self.points} at {name(self.place)}{tail}"


@dataclass(frozen=True, slots=True)
class MoveFactory(OrderKind):
    """``move-factory 2 airship-factory from Paris to Lyon [by <leader>] [paying nfp]``: factory points crated and
    moved to a controlled city, by land within the HBZ range in AP, or by sea with a leader (LotE 3.6.4)."""

    verbs: ClassVar[tuple[str, ...]] = ("move-factory",)

    points: int
    kind: str
    source: str
    destination: str
    leader: str = ""
    nfp: bool = False

    @classmethod
    def read(cls, line: Reader, verb: str) -> MoveFactory:
        points = line.count("how many factory points")
        kind = line.take("which factory").lower()
        if kind not in FACTORY_ORDERS:
            raise OrderError(f"`{kind}` is not a factory or yard ({', '.join(FACTORY_ORDERS)})")
        line.word("from")
        source = line.name_until("to", what="where the factory stands")
        line.word("to")
        destination = line.name_until("by", "paying", what="the city it moves to")
        leader = line.name_until("paying", what="a leader", known=line.names.leaders) if line.optional("by") else ""
        nfp = False
        if line.optional("paying"):
            nfp = line.word("nfp", "gp") == "nfp"
        return cls(points, kind, source, destination, leader, nfp)

    def text(self) -> str:
        by = f" by {name(self.leader)}" if self.leader else ""
        paying = " paying nfp" if self.nfp else ""
        return f"move-factory {self.points} {self.kind} from {name(self.source)} to {name(self.destination)}{by}" \
               f"{paying}"


@dataclass(frozen=True, slots=True)
class Bombard(OrderKind):
    """``bombard steamship-yard at Brest with "Channel Fleet"``: airships, heavy artillery or ships offshore attack a
    factory or yard with their Siege strength (LotE 3.6.6); `city-yard` is a city's generic yard."""

    verbs: ClassVar[tuple[str, ...]] = ("bombard",)

    target: str
    place: str
    army: str

    @classmethod
    def read(cls, line: Reader, verb: str) -> Bombard:
        target = line.take("what to bombard").lower()
        if target not in (*FACTORY_ORDERS, "city-yard"):
            raise OrderError(f"`{target}` is not a factory or yard ({', '.join(FACTORY_ORDERS)}, city-yard)")
        line.word("at")
        place = line.name_until("with", what="the place")
        line.word("with")
        return cls(target, place, line.name_until(what="an army", known=line.names.armies))

    def text(self) -> str:
        return f"bombard {self.target} at {name(self.place)} with {name(self.army)}"


@dataclass(frozen=True, slots=True)
class Fund(OrderKind):
    """``fund P002 30gp 5nfp``: pay into a construction project already begun."""

    verbs: ClassVar[tuple[str, ...]] = ("fund",)

    project: str
    gp: float
    nfp: int

    @classmethod
    def read(cls, line: Reader, verb: str) -> Fund:
        project = line.take("a project id, like P002").upper()
        amounts = line.amounts()
        if not amounts or not set(amounts) <= {"gp", "nfp"}:
            raise OrderError("give the GP and NFP to pay in, like 30gp 5nfp")
        return cls(project, amounts.get("gp", 0.0), whole(amounts.get("nfp", 0), "nfp"))

    def text(self) -> str:
        return f"fund {self.project} {amounts_text(self.gp, self.nfp)}"


@dataclass(frozen=True, slots=True)
class Colonize(OrderKind):
    """``colonize Morocco 15gp 15nfp``: settle an inhabited region next to one we control (3.3.1)."""

    verbs: ClassVar[tuple[str, ...]] = ("colonize", "colonise")

    region: str
    gp: float
    nfp: int

    @classmethod
    def read(cls, line: Reader, verb: str) -> Colonize:
        region = line.name_until(what="a region")
        amounts = line.amounts()
        if not amounts or not set(amounts) <= {"gp", "nfp"}:
            raise OrderError("give the GP and NFP to spend, like 15gp 15nfp")
        return cls(region, amounts.get("gp", 0.0), whole(amounts.get("nfp", 0), "nfp"))

    def text(self) -> str:
        return f"colonize {name(self.region)} {amounts_text(self.gp, self.nfp)}"


@dataclass(frozen=True, slots=True)
class Improve(OrderKind):
    """``improve Kent``: raise a cultivated region's GPv by one (3.3.2, 3.3.3)."""

    verbs: ClassVar[tuple[str, ...]] = ("improve",)

    region: str

    @classmethod
    def read(cls, line: Reader, verb: str) -> Improve:
        return cls(line.name_until(what="a region"))

    def text(self) -> str:
        return f"improve {name(self.region)}"


@dataclass(frozen=True, slots=True)
class Grow(OrderKind):
    """``grow London``: the nation adds a GPv to a city of its own (Basic Rulebook; Table 3-5 at TL 12+)."""

    verbs: ClassVar[tuple[str, ...]] = ("grow",)

    city: str

    @classmethod
    def read(cls, line: Reader, verb: str) -> Grow:
        return cls(line.name_until(what="a city"))

    def text(self) -> str:
        return f"grow {name(self.city)}"


@dataclass(frozen=True, slots=True)
class CoBuild(OrderKind):
    """``cobuild Antwerp 20gp 10nfp by Castorp``: a House, Primacy or Order adds a GPv to another's city
    (LotE 3.3.5); without amounts it pays all that is left; `by` names the leader who brings the gold."""

    verbs: ClassVar[tuple[str, ...]] = ("cobuild", "co-build")

    city: str
    gp: float = 0
    nfp: int = 0
    leader: str = ""

    @classmethod
    def read(cls, line: Reader, verb: str) -> CoBuild:
        city = line.name_until("by", what="a city")
        amounts = line.amounts()
        if not set(amounts) <= {"gp", "nfp"}:
            raise OrderError("a co-build pays GP and NFP, like 20gp 10nfp (or nothing: all that is left)")
        leader = line.name_until(what="a leader", known=line.names.leaders) if line.optional("by") else ""
        return cls(city, amounts.get("gp", 0.0), whole(amounts.get("nfp", 0), "nfp"), leader)

    def text(self) -> str:
        paid = amounts_text(self.gp, self.nfp)
        by = f" by {name(self.leader)}" if self.leader else ""
        return f"cobuild {name(self.city)}{' ' + paid if paid else ''}{by}"


@dataclass(frozen=True, slots=True)
class Recruit(OrderKind):
    """``recruit 2 for P001``: 25 GP a block, 1d6-1 project NFP each (4.3)."""

    verbs: ClassVar[tuple[str, ...]] = ("recruit",)

    blocks: int
    project: str

    @classmethod
    def read(cls, line: Reader, verb: str) -> Recruit:
        blocks = line.count("how many blocks of 25 GP")
        line.word("for")
        return cls(blocks, line.take("a project id").upper())

    def text(self) -> str:
        return f"recruit {self.blocks} for {self.project}"


@dataclass(frozen=True, slots=True)
class Engineers(OrderKind):
    """``engineers 2 from "Home Army" for P002``: siege engineers working a construction project (4.6)."""

    verbs: ClassVar[tuple[str, ...]] = ("engineers",)

    count: int
    army: str
    project: str

    @classmethod
    def read(cls, line: Reader, verb: str) -> Engineers:
        count = line.count("how many engineer units")
        line.word("from")
        army = line.name_until("for", what="an army", known=line.names.armies)
        line.word("for")
        return cls(count, army, line.take("a project id").upper())

    def text(self) -> str:
        return f"engineers {self.count} from {name(self.army)} for {self.project}"


@dataclass(frozen=True, slots=True)
class Assist(OrderKind):
    """``assist France Airships 1nfp``: technicians sent to another nation's R&D project (4.4)."""

    verbs: ClassVar[tuple[str, ...]] = ("assist",)

    nation: str
    project: str
    nfp: int

    @classmethod
    def read(cls, line: Reader, verb: str) -> Assist:
        nation = line.take("a nation")
        project = line.name_until(what="an R&D project")
        amounts = line.amounts()
        if set(amounts) != {"nfp"}:
            raise OrderError("technical assistance is NFP, like 1nfp")
        return cls(nation, project, whole(amounts["nfp"], "nfp"))

    def text(self) -> str:
        return f"assist {name(self.nation)} {name(self.project)} {self.nfp}nfp"
