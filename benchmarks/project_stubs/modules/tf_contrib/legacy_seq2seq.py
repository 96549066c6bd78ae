"""``tf.contrib.legacy_seq2seq``: ``rnn_decoder`` and ``sequence_loss_by_example`` as TF1 defined them."""
import tensorflow.compat.v1 as v1


def rnn_decoder(decoder_inputs, initial_state, cell, loop_function=None, scope=None):
    with v1.variable_scope(scope or "rnn_decoder"):
        state, outputs, prev = initial_state, [], None
        for i, inp in enumerate(decoder_inputs):
            if loop_function is not None and prev is not None:
                with v1.variable_scope("loop_function", reuse=True):
                    inp = loop_function(prev, i)
            if i > 0:
                v1.get_variable_scope().reuse_variables()
            output, state = cell(inp, state)
            outputs.append(output)
            if loop_function is not None:
                prev = output
    return outputs, state


def sequence_loss_by_example(logits, targets, weights, average_across_timesteps=True,
                             softmax_loss_function=None, name=None):
    with v1.name_scope(name, "sequence_loss_by_example", logits + targets + weights):
        losses = []
        for logit, target, weight in zip(logits, targets, weights):
            if softmax_loss_function is None:
                cross = v1.nn.sparse_softmax_cross_entropy_with_logits(labels=v1.reshape(target, [-1]), logits=logit)
            else:
                cross = softmax_loss_function(labels=target, logits=logit)
            losses.append(cross * weight)
        total = v1.add_n(losses)
        if average_across_timesteps:
            total /= v1.add_n(weights) + 1e-12
        return total
