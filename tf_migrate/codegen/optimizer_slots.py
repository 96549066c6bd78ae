"""A Saver that also keeps TF1 optimizers' slots, under the names TF1's ``Saver()`` gave them.

TF1's ``tf.train.Saver()`` listed every global variable, the optimizer's too: Adam's moments as
``W/Adam`` and ``W/Adam_1`` (a slot is named after its variable and the optimizer's name, made unique
in the order the optimizer made them), its ``beta1_power`` and ``beta2_power`` (made unique across
the graph: ``beta1_power_1`` for a second Adam). A program that restores a checkpoint and trains on
resumes from those values. An eager ``tf.compat.v1.train`` optimizer makes its slots at its first
step; :data:`HELPER` is the source of the Saver subclass the migrated program carries, which lists
them at each save and restore, and which first makes, at a restore, the slots the checkpoint holds
(with the optimizer's own slot-making method, which that first step calls).

Measured (TF 2.21, CPU): a checkpoint TF1 wrote restores into the migrated program and trains on to
TF1's numbers bit for bit, and one the migrated program wrote lists TF1's keys.
"""
from __future__ import annotations

import json

SAVER_WITH_SLOTS = "SaverWithSlots"

# TF1 optimizer class -> its slots in the order its ``_create_slots`` makes them (TF1's name suffixes follow it)
SLOTS = {
    "AdamOptimizer": ("m", "v"),
    "MomentumOptimizer": ("momentum",),
    "RMSPropOptimizer": ("rms", "mg", "momentum"),
    "AdagradOptimizer": ("accumulator",),
    "AdadeltaOptimizer": ("accum", "accum_update"),
    "FtrlOptimizer": ("accum", "linear"),
    "ProximalAdagradOptimizer": ("accumulator",),
}
SLOTLESS = ("GradientDescentOptimizer", "ProximalGradientDescentOptimizer")


def helper(tf: str = "tf", name: str = SAVER_WITH_SLOTS) -> str:
    """The source of the Saver subclass ``name`` (``tf``: the module's name for tensorflow)."""
    slots = "".join(f"\n        {json.dumps(name)}: ({', '.join(json.dumps(slot) for slot in order)}{',' * (len(order) == 1)}),"
                    for name, order in SLOTS.items())
    return f'''
class {name}({tf}.compat.v1.train.Saver):
    """A Saver of the model's variables ({{TF1 name: variable}}) and of the slots and step counts of TF1
    optimizers, by the names TF1's Saver() gave them (``W/Adam``, ``W/Adam_1``, ``beta1_power``)."""

    SLOTS = {{{slots}
    }}

    def __init__(self, var_list, optimizers, **kwargs):
        self.model_variables, self.optimizers = dict(var_list), list(optimizers)
        super().__init__(var_list=self.tf1_variables(), **kwargs)

    def tf1_variables(self):
        """{{TF1 name: variable}}: the model's, then each optimizer's slots and its other variables."""
        named, counts = dict(self.model_variables), {{}}

        def unique(name):
            counts[name] = counts.get(name, 0) + 1
            return self.numbered(name, counts[name] - 1)

        for optimizer in self.optimizers:
            slots = set()
            for name, variable in self.model_variables.items():
                for kind in self.SLOTS[type(optimizer).__name__]:
                    slot = optimizer.get_slot(variable, kind)
                    if slot is not None:
                        named[unique(f"{{name}}/{{optimizer.get_name()}}")] = slot
                        slots.add(id(slot))
            for variable in optimizer.variables():  # Adam's beta1_power, beta2_power
                if id(variable) not in slots:
                    named[unique(variable.name.split(":")[0])] = variable
        return named

    def save(self, sess, save_path, *args, **kwargs):
        self._var_list = self.tf1_variables()  # an eager Saver lists its variables again at each save
        return super().save(sess, save_path, *args, **kwargs)

    def restore(self, sess, save_path):
        try:
            held = {{name for name, _ in {tf}.train.list_variables(save_path)}}
        except ({tf}.errors.OpError, ValueError):
            held = set()  # the Saver's own restore says what is wrong
        counts = {{}}  # slot name -> how many slots of that name earlier optimizers hold (TF1 numbered them on)
        for optimizer in self.optimizers:
            kinds = self.SLOTS[type(optimizer).__name__]
            prefixes = {{name: f"{{name}}/{{optimizer.get_name()}}" for name in self.model_variables}}
            trained = [variable for name, variable in self.model_variables.items()
                       if all(optimizer.get_slot(variable, kind) is None for kind in kinds)
                       and self.numbered(prefixes[name], counts.get(prefixes[name], 0)) in held]
            if trained:
                with {tf}.init_scope():  # the slots TF1 made at minimize(), which the first eager step makes
                    optimizer._create_slots(trained)
            for name, variable in self.model_variables.items():
                counts[prefixes[name]] = counts.get(prefixes[name], 0) + sum(
                    optimizer.get_slot(variable, kind) is not None for kind in kinds)
        self._var_list = self.tf1_variables()
        return super().restore(sess, save_path)

    @staticmethod
    def numbered(name, count):
        """TF1's unique names: ``name``, then ``name_1``, ``name_2``..."""
        return f"{{name}}_{{count}}" if count else name
'''
