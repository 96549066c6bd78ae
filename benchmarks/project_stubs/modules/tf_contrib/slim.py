"""``tf.contrib.slim``: only ``model_analyzer.analyze_vars`` (prints each variable's name and shape)."""
import types


def _analyze_vars(variables, print_info=False):
    total = 0
    for var in variables:
        size = int(var.shape.num_elements() or 0)
        total += size
        if print_info:
            print(var.name, var.shape.as_list(), size)
    print("Total size of variables:", total)
    return total, total * 4


model_analyzer = types.SimpleNamespace(analyze_vars=_analyze_vars)
