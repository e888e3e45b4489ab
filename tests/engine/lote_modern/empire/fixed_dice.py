"""A Dice that shows chosen faces: rolls are still made and logged through Dice, only the faces differ."""

from dataclasses import replace

from engine.core.rng import Dice, Roll


class FixedDice(Dice):
    """Hands out the given faces in order, one per die; logs every roll like real dice."""

    def __init__(self, *faces: int) -> None:
        super().__init__(b"\x07" * 32, "test")
        self._faces = list(faces)

    def roll(self, count, sides, *, purpose, visibility=None, modifier=0, table=None, result=None) -> Roll:
        kwargs = {} if visibility is None else {"visibility": visibility}
        real = super().roll(count, sides, purpose=purpose, modifier=modifier, table=table, result=result, **kwargs)
        faces = tuple(self._faces.pop(0) for _ in range(count))
        assert all(1 <= f <= sides for f in faces), f"face outside 1-{sides}"
        fixed = replace(real, faces=faces, total=sum(faces))
        self.rolls[-1] = fixed
        return fixed
