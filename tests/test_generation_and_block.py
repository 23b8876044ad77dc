"""The KV cache, the O(n²) counts and the transformer block, against PyTorch and brute-force counts."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_math as am
from attention_math.block import (
    BlockWeights,
    layer_norm,
    random_block_weights,
)
from attention_math.generation import (
    attention_macs,
    cached_step_macs,
    full_step_macs,
    generation_macs,
)
from attention_math.traces.complexity import complexity_trace
from attention_math.traces.kv_cache import kv_cache_trace
from attention_math.traces.transformer_block import transformer_block_trace
from scenes.theme import format_number

from .helpers import to_json_in_a_fresh_process, torch_weights

DOUBLE = torch.float64


def tensor(a):
    return torch.as_tensor(np.array(a), dtype=DOUBLE)


# --- brute-force multiply-add counters --------------------------------------------


class Counter:
    """Multiply-adds counted one at a time, by plain Python loops."""

    def __init__(self):
        self.macs = 0

    def matvec(self, row, matrix):
        """``row @ matrix`` with every product counted."""
        out = [0.0] * len(matrix[0])
        for j in range(len(matrix[0])):
            for i in range(len(row)):
                out[j] += row[i] * matrix[i][j]
                self.macs += 1
        return out

    def dot(self, a, b):
        total = 0.0
        for x, y in zip(a, b):
            total += x * y
            self.macs += 1
        return total


def attend_counted(counter, query, keys, values):
    """One query row against keys and values, counting every multiply-add (softmax is not counted)."""
    scores = np.array([counter.dot(query, key) for key in keys]) / np.sqrt(len(query))
    weights = am.softmax(scores)
    return counter.matvec(list(weights), values)


def generate_counted(x, w_q, w_k, w_v, use_cache):
    """Generate token by token; return each step's output and multiply-adds, counted by loops."""
    n = len(x)
    outputs, per_step = [], []
    keys, values = [], []
    for t in range(n):
        counter = Counter()
        if use_cache:
            q = counter.matvec(x[t], w_q)
            keys.append(counter.matvec(x[t], w_k))
            values.append(counter.matvec(x[t], w_v))
            outputs.append(attend_counted(counter, q, keys, values))
        else:
            # From scratch: project every token, then the full t x t scores, mask, and weights @ V.
            qs = [counter.matvec(row, w_q) for row in x[: t + 1]]
            ks = [counter.matvec(row, w_k) for row in x[: t + 1]]
            vs = [counter.matvec(row, w_v) for row in x[: t + 1]]
            scores = np.array([[counter.dot(q, k) for k in ks] for q in qs]) / np.sqrt(len(qs[0]))
            scores = np.where(am.causal_mask(t + 1), scores, -np.inf)
            weights = am.softmax(scores)
            rows = [counter.matvec(list(w), vs) for w in weights]
            outputs.append(rows[-1])
        per_step.append(counter.macs)
    return np.array(outputs), per_step


def einsum_macs(spec, *shapes):
    """Multiply-adds of ``torch.einsum(spec, ...)``: the product of the sizes of every index it loops over."""
    inputs = spec.split("->")[0].split(",")
    sizes = {}
    for letters, shape in zip(inputs, shapes):
        sizes.update(zip(letters, shape))
    operands = [torch.zeros(shape) for shape in shapes]
    torch.einsum(spec, *operands)  # the shapes must really fit together
    return int(np.prod(list(sizes.values())))


# --- KV cache ----------------------------------------------------------------


def test_cached_outputs_equal_full_causal_attention_in_torch():
    trace = kv_cache_trace()
    x = np.array(trace.x)
    q, k, v = (tensor(x @ w) for w in (trace.w_q, trace.w_k, trace.w_v))
    full = F.scaled_dot_product_attention(q, k, v, is_causal=True).numpy()
    # Causal row t sees tokens 0..t only: exactly what step t of generation computes from the cache.
    np.testing.assert_allclose(trace.outputs, full, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(trace.recomputed_outputs, full, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(trace.weights, torch_weights(x @ trace.w_q, x @ trace.w_k, is_causal=True), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(trace.recomputed_weights, trace.weights, rtol=1e-10, atol=1e-12)
    assert trace.outputs_match and trace.max_difference < 1e-12


def test_cache_holds_every_key_and_value_and_one_query_per_step():
    trace = kv_cache_trace()
    np.testing.assert_allclose(trace.k, np.array(trace.x) @ trace.w_k)
    np.testing.assert_allclose(trace.v, np.array(trace.x) @ trace.w_v)
    np.testing.assert_allclose(trace.q, np.array(trace.x) @ trace.w_q)
    n = len(trace.tokens)
    assert np.all(np.isneginf(trace.scores[np.triu_indices(n, k=1)]))
    assert np.all(trace.weights[np.triu_indices(n, k=1)] == 0.0)
    np.testing.assert_allclose(trace.weights.sum(axis=1), 1.0)
    np.testing.assert_allclose(trace.scores[-1], (trace.q[-1] @ trace.k.T) / np.sqrt(trace.d))
    assert trace.cache_floats == trace.k.size + trace.v.size


def test_step_counts_match_a_brute_force_count():
    trace = kv_cache_trace()
    x, w = np.array(trace.x), (trace.w_q, trace.w_k, trace.w_v)
    cached_out, cached_macs = generate_counted(x, *w, use_cache=True)
    full_out, full_macs = generate_counted(x, *w, use_cache=False)
    assert trace.macs_cached.tolist() == cached_macs
    assert trace.macs_full.tolist() == full_macs
    assert trace.total_cached == sum(cached_macs) and trace.total_full == sum(full_macs)
    assert trace.saving_ratio == pytest.approx(sum(full_macs) / sum(cached_macs))
    # The counted loops compute the same attention as the trace.
    np.testing.assert_allclose(cached_out, trace.outputs, atol=1e-12)
    np.testing.assert_allclose(full_out, trace.outputs, atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 7), d=st.integers(1, 5), seed=st.integers(0, 1000))
def test_generation_formulas_match_loop_counts(n, d, seed):
    r = np.random.default_rng(seed)
    x, w_q, w_k, w_v = r.normal(size=(n, d)), r.normal(size=(d, d)), r.normal(size=(d, d)), r.normal(size=(d, d))
    _, cached = generate_counted(x, w_q, w_k, w_v, use_cache=True)
    _, full = generate_counted(x, w_q, w_k, w_v, use_cache=False)
    assert [cached_step_macs(t, d) for t in range(1, n + 1)] == cached
    assert [full_step_macs(t, d) for t in range(1, n + 1)] == full
    assert generation_macs(n, d) == (sum(cached), sum(full))


def test_long_generation_totals_and_ratio_grow():
    trace = kv_cache_trace()
    for n, cached, full in zip(trace.long_lengths, trace.long_cached, trace.long_full):
        assert cached == sum(cached_step_macs(t, trace.d) for t in range(1, n + 1))
        assert full == sum(full_step_macs(t, trace.d) for t in range(1, n + 1))
    assert np.all(np.diff(trace.long_ratios) > 0)
    assert trace.long_ratios[0] > trace.saving_ratio > 1


def test_kv_cache_trace_is_reproducible_and_json():
    a, c = kv_cache_trace(seed=3), kv_cache_trace(seed=4)
    assert [a.to_json()] == to_json_in_a_fresh_process("am.kv_cache_trace(seed=3)")
    assert a.to_json() != c.to_json()
    data = json.loads(a.to_json())
    assert data["kind"] == "KVCacheTrace" and data["scores"][0][1] == "-inf"


def test_the_real_models_cache_is_what_transformers_keeps():
    """GPT-2 small's sizes are GPT2Config's defaults; a GPT2Model run with a cache keeps 2 x layers x d_model per token."""
    from transformers import GPT2Config, GPT2Model

    trace = kv_cache_trace()
    gpt2 = GPT2Config()
    assert trace.real_model == "GPT-2 small"
    assert (trace.real_layers, trace.real_d_model, trace.real_context) == (gpt2.n_layer, gpt2.n_embd, gpt2.n_positions)
    # A small model of the same kind: every layer caches a key and a value for every head and token.
    config = GPT2Config(vocab_size=10, n_positions=16, n_embd=12, n_layer=3, n_head=3, bos_token_id=0, eos_token_id=0)
    seq = 5
    with torch.no_grad():
        cache = GPT2Model(config).eval()(torch.zeros(1, seq, dtype=torch.long), use_cache=True).past_key_values
    cached = sum(layer.keys.numel() + layer.values.numel() for layer in cache.layers)
    per_token = cached // seq
    assert cached == per_token * seq and per_token == 2 * config.n_layer * config.n_embd
    # The same count for GPT-2 small, and its memory in float32.
    assert trace.real_numbers_per_token == 2 * gpt2.n_layer * gpt2.n_embd == 18_432
    assert trace.real_cache_numbers == trace.real_numbers_per_token * gpt2.n_positions
    full = torch.empty(trace.real_cache_numbers, dtype=torch.float32)
    assert trace.real_cache_mib == full.element_size() * full.numel() / 2**20 == 72.0


# --- O(n²) ------------------------------------------------------------------------


@pytest.mark.parametrize("n, d", [(1, 1), (3, 2), (5, 4), (8, 3)])
def test_attention_macs_match_loops_and_einsum(n, d):
    r = np.random.default_rng(n * 10 + d)
    q, k, v = r.normal(size=(n, d)), r.normal(size=(n, d)), r.normal(size=(n, d))
    counter = Counter()
    scores = [[counter.dot(qi, kj) for kj in k] for qi in q]
    qk = counter.macs
    weights = am.softmax(np.array(scores) / np.sqrt(d))
    for row in weights:
        counter.matvec(list(row), v)
    av = counter.macs - qk
    assert attention_macs(n, d) == (qk, av)
    assert attention_macs(n, d) == (einsum_macs("id,jd->ij", (n, d), (n, d)), einsum_macs("ij,jd->id", (n, n), (n, d)))


def test_complexity_trace_counts():
    trace = complexity_trace()
    n, d = trace.lengths, trace.d
    assert trace.weight_counts.tolist() == [einsum_macs("id,jd->ij", (m, 1), (m, 1)) for m in n]  # one weight per (i, j)
    assert trace.weight_bytes.tolist() == [torch.empty(int(m), int(m), dtype=torch.float32).nbytes for m in n]
    assert trace.qk_macs.tolist() == [einsum_macs("id,jd->ij", (m, d), (m, d)) for m in n]
    assert trace.av_macs.tolist() == [einsum_macs("ij,jd->id", (m, m), (m, d)) for m in n]
    np.testing.assert_array_equal(trace.total_macs, 2 * n * n * d)
    np.testing.assert_array_equal(trace.weight_mib, trace.weight_bytes / 2**20)
    # Doubling n quadruples both the memory and the multiply-adds.
    assert np.all(np.diff(np.log2(n)) == 1)
    assert trace.growth.tolist() == [4.0] * (len(n) - 1) and trace.memory_growth.tolist() == [4.0] * (len(n) - 1)
    np.testing.assert_array_equal(trace.relative_macs, trace.relative_lengths**2)
    # Doubling d only doubles the multiply-adds.
    assert trace.width_growth.tolist() == [2.0] * (len(trace.widths) - 1)
    assert trace.width_macs.tolist() == [2 * trace.width_n**2 * int(w) for w in trace.widths]
    assert trace.grid_cells.tolist() == [int(m) ** 2 for m in trace.grid_sizes]


def test_complexity_counts_as_said_are_the_exact_counts_in_millions_and_billions():
    """The screen shows "8.59 billion", not 8,589,934,592: the same count, in the unit a person says."""
    trace = complexity_trace()
    n, d = trace.lengths, trace.d
    for name, exact in (("qk", n * n * d), ("av", n * n * d), ("total", 2 * n * n * d)):
        np.testing.assert_allclose(getattr(trace, f"{name}_millions") * 10**6, exact)
        np.testing.assert_allclose(getattr(trace, f"{name}_billions") * 10**9, exact)
    assert round(float(trace.total_billions[-1]), 2) == 8.59 and int(trace.total_macs[-1]) == 8_589_934_592
    np.testing.assert_allclose(trace.weight_millions * 10**6, n * n)
    np.testing.assert_allclose(trace.width_macs_millions * 10**6, [2 * trace.width_n**2 * int(w) for w in trace.widths])
    # The number of weights does not depend on the head's width.
    np.testing.assert_allclose(trace.width_weight_millions * 10**6, [trace.width_n**2] * len(trace.widths))


def test_the_context_marked_in_the_memory_table_is_gpt2s():
    """The row tagged as GPT-2 small's context is the longest text it reads (transformers' GPT2Config, whose defaults
    are GPT-2 small's: 12 layers, 768 wide; the paper's "GPT-2" is the 1.5 B model, so the name says "small")."""
    from transformers import GPT2Config

    trace = complexity_trace()
    config = GPT2Config()
    assert (config.n_layer, config.n_embd) == (12, 768)
    assert trace.context_model == "GPT-2 small"
    assert trace.context_length == config.n_positions == 1024
    assert trace.context_length in trace.lengths.tolist()


def test_a_whole_gpt2_small_layer_is_counted_as_pytorch_counts_hugging_faces_block():
    """The whole-layer counts are PyTorch's FLOP counter (2 per multiply-add) over transformers' own GPT2Block."""
    from torch.utils.flop_counter import FlopCounterMode
    from transformers import GPT2Config
    from transformers.models.gpt2.modeling_gpt2 import GPT2Block

    trace = complexity_trace()
    config = GPT2Config(attn_implementation="eager")  # GPT-2 small: n_embd 768, n_inner None, that is 4 × 768
    assert (trace.layer_d_model, trace.layer_d_ff) == (config.n_embd, 4 * config.n_embd) and config.n_inner is None
    counted = []
    with torch.device("meta"):  # shapes only: the counter needs no numbers
        block = GPT2Block(config)
        for n in trace.layer_lengths:
            with FlopCounterMode(display=False) as counter:
                block(torch.empty(1, int(n), config.n_embd))
            counted.append(counter.get_total_flops() // 2)
    assert trace.layer_macs.sum(axis=1).tolist() == counted
    # The n² part (Q Kᵀ and weights · V) is a minority at 1,024 tokens, so doubling n multiplies the layer by about 2.4.
    assert trace.layer_macs[:, 1:3].tolist() == [[int(n) ** 2 * 768] * 2 for n in trace.layer_lengths]
    assert trace.layer_quadratic_share[0] < 0.5 and round(trace.layer_growth, 1) == 2.4
    assert trace.layer_growth == counted[1] / counted[0]


# --- layer norm, feed-forward, the block --------------------------------------------


@pytest.mark.parametrize("affine", [False, True])
def test_layer_norm_matches_torch(affine):
    r = np.random.default_rng(7)
    x = r.normal(2.0, 3.0, size=(5, 8))
    module = torch.nn.LayerNorm(8, eps=1e-5, dtype=DOUBLE)
    gamma = beta = None
    if affine:
        gamma, beta = r.normal(size=8), r.normal(size=8)
        with torch.no_grad():
            module.weight.copy_(tensor(gamma))
            module.bias.copy_(tensor(beta))
    expected = module(tensor(x)).detach().numpy()
    np.testing.assert_allclose(layer_norm(x, gamma, beta), expected, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(F.layer_norm(tensor(x), (8,)).numpy(), layer_norm(x), rtol=1e-10, atol=1e-12)


def random_weights(seed, d_model, d_ff):
    """Block weights with every parameter random (biases, gamma and beta too) so none is trivially checked."""
    r = np.random.default_rng(seed)
    m = lambda *shape: r.normal(size=shape) / np.sqrt(shape[0])  # noqa: E731
    return BlockWeights(
        m(d_model, d_model),
        m(d_model, d_model),
        m(d_model, d_model),
        m(d_model, d_model),
        1 + 0.1 * r.normal(size=d_model),
        0.1 * r.normal(size=d_model),
        m(d_model, d_ff),
        0.1 * r.normal(size=d_ff),
        m(d_ff, d_model),
        0.1 * r.normal(size=d_model),
        1 + 0.1 * r.normal(size=d_model),
        0.1 * r.normal(size=d_model),
    )


def gpt2_with(weights_per_layer, positions, eps=1e-5):
    """Hugging Face's GPT2Model (pre-norm, gelu_new, causal) holding our weights, in float64, no dropout."""
    from transformers import GPT2Config, GPT2Model

    seq, d_model = positions.shape
    first = weights_per_layer[0]
    n_heads = first.n_heads
    config = GPT2Config(
        vocab_size=4,
        n_positions=seq,
        n_embd=d_model,
        n_layer=len(weights_per_layer),
        n_head=n_heads,
        n_inner=first.w.w1.shape[1],
        activation_function="gelu_new",
        resid_pdrop=0.0,
        embd_pdrop=0.0,
        attn_pdrop=0.0,
        layer_norm_epsilon=eps,
    )
    config._attn_implementation = "eager"
    model = GPT2Model(config).to(DOUBLE).eval()
    with torch.no_grad():
        model.wpe.weight.copy_(tensor(positions))
        for block, layer in zip(model.h, weights_per_layer):
            w = layer.w
            # GPT-2's Conv1D computes x @ weight + bias, as ours does: no transposes.
            block.attn.c_attn.weight.copy_(tensor(np.concatenate([w.w_q, w.w_k, w.w_v], axis=1)))
            block.attn.c_attn.bias.zero_()
            block.attn.c_proj.weight.copy_(tensor(w.w_o))
            block.attn.c_proj.bias.zero_()
            block.mlp.c_fc.weight.copy_(tensor(w.w1))
            block.mlp.c_fc.bias.copy_(tensor(w.b1))
            block.mlp.c_proj.weight.copy_(tensor(w.w2))
            block.mlp.c_proj.bias.copy_(tensor(w.b2))
            for norm, gamma, beta in ((block.ln_1, w.gamma1, w.beta1), (block.ln_2, w.gamma2, w.beta2)):
                norm.weight.copy_(tensor(gamma))
                norm.bias.copy_(tensor(beta))
    return model


class Layer:
    def __init__(self, w, n_heads):
        self.w, self.n_heads = w, n_heads


def test_gelu_is_gpt2s_tanh_approximation():
    x = np.linspace(-6, 6, 241)
    np.testing.assert_allclose(am.gelu(x), F.gelu(tensor(x), approximate="tanh").numpy(), rtol=1e-12, atol=1e-14)
    assert am.gelu(x).min() > -0.171  # negative inputs are pulled towards 0, never far below it


@pytest.mark.parametrize("d_model, n_heads", [(8, 2), (4, 4), (8, 1)])
def test_gpt_block_matches_huggingface_gpt2(d_model, n_heads):
    """Every parameter random (biases, gamma and beta too): one block against transformers' GPT2Model."""
    seq = 4
    x = np.random.default_rng(9).normal(size=(seq, d_model))
    w = random_weights(10, d_model, 4 * d_model)
    result = am.gpt_block(x, w, n_heads, mask=am.causal_mask(seq))
    model = gpt2_with([Layer(w, n_heads)], np.zeros((seq, d_model)))
    captured = {}
    model.h[0].register_forward_hook(lambda module, args, output: captured.setdefault("block", output))
    with torch.no_grad():
        out = model(inputs_embeds=tensor(x)[None], output_hidden_states=True, output_attentions=True)
    block_output = captured["block"][0] if isinstance(captured["block"], tuple) else captured["block"]
    np.testing.assert_allclose(result.output, block_output[0].numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(result.attention_weights, out.attentions[0][0].numpy(), rtol=1e-10, atol=1e-12)
    # GPT-2 applies its final layer norm (ln_f, here gamma 1, beta 0) after the last block.
    ln_f = F.layer_norm(tensor(result.output), (d_model,), eps=1e-5).numpy()
    np.testing.assert_allclose(ln_f, out.last_hidden_state[0].numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("sentence", [None, "I love attention"])
def test_block_trace_matches_huggingface_gpt2(sentence):
    if sentence is None:
        trace = transformer_block_trace()
    else:
        # A teacher's sentence: its words' own vectors replace the drawn embeddings; the weights stay the seed's.
        example = am.sentence_example(sentence, dim=8)
        trace = transformer_block_trace(example.tokens, embeddings=example.embeddings, embeddings_source=example.source)
        assert trace.embeddings_source == example.source
    seq, d_model = trace.x.shape
    assert trace.d_ff == 4 * d_model  # GPT-2 and GPT-3: the feed-forward layer is 4 d_model wide
    # The builder draws the embeddings first (used only without a sentence), then the positions, then each layer.
    rng = np.random.default_rng(trace.seed)
    drawn = rng.standard_normal((seq, d_model))
    np.testing.assert_array_equal(drawn if sentence is None else example.embeddings, trace.embeddings)
    np.testing.assert_array_equal(rng.standard_normal((seq, d_model)), trace.positions)
    layers = [Layer(random_block_weights(rng, d_model, 4 * d_model), trace.n_heads) for _ in range(trace.n_layers)]
    model = gpt2_with(layers, trace.positions)
    joined = {}
    # What GPT-2's output projection c_proj reads in the first block: the heads' outputs joined side by side.
    model.h[0].attn.c_proj.register_forward_pre_hook(lambda module, args: joined.setdefault("concat", args[0]))
    with torch.no_grad():
        out = model(inputs_embeds=tensor(trace.embeddings)[None], output_hidden_states=True, output_attentions=True)
    concat = joined["concat"][0].numpy()
    np.testing.assert_allclose(trace.concat, concat, rtol=1e-10, atol=1e-12)
    d_head = d_model // trace.n_heads
    for h in range(trace.n_heads):  # head h's outputs are the h-th slice of d_head numbers of the joined row
        np.testing.assert_allclose(trace.head_outputs[h], concat[:, h * d_head : (h + 1) * d_head], rtol=1e-10, atol=1e-12)
    # The mask is GPT-2's: attention to a later token is exactly 0 in transformers' weights too.
    np.testing.assert_array_equal(trace.mask, out.attentions[0][0, 0].numpy() > 0)
    hidden_states = [h[0].numpy() for h in out.hidden_states]
    np.testing.assert_allclose(trace.x, hidden_states[0], rtol=1e-12)  # token + position embeddings
    for i in range(trace.n_layers - 1):
        np.testing.assert_allclose(trace.layer_outputs[i], hidden_states[i + 1], rtol=1e-10, atol=1e-12)
    # transformers reports the last hidden state after the final layer norm ln_f.
    np.testing.assert_allclose(trace.final_norm, hidden_states[-1], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(trace.final_norm, out.last_hidden_state[0].numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(trace.attention_weights, out.attentions[0][0].numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(trace.layer_outputs[0], trace.output)
    # The first block's intermediates, by torch's own functions on the trace's weights.
    w = layers[0].w
    norm1 = F.layer_norm(tensor(trace.x), (d_model,), eps=1e-5)
    np.testing.assert_allclose(trace.norm1, norm1.numpy(), rtol=1e-10, atol=1e-12)
    residual1 = tensor(trace.x) + tensor(trace.attention)
    norm2 = F.layer_norm(residual1, (d_model,), eps=1e-5)
    hidden = F.gelu(norm2 @ tensor(w.w1) + tensor(w.b1), approximate="tanh")
    ff = hidden @ tensor(w.w2) + tensor(w.b2)
    np.testing.assert_allclose(trace.norm2, norm2.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(trace.hidden, hidden.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(trace.ff, ff.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(trace.output, (residual1 + ff).numpy(), rtol=1e-10, atol=1e-12)
    assert trace.hidden_negative.tolist() == (trace.pre_activation < 0).sum(axis=1).tolist()


def test_block_trace_refuses_embeddings_of_the_wrong_shape_or_without_a_source():
    with pytest.raises(ValueError, match="embeddings must be"):
        transformer_block_trace(("a", "b"), d_model=8, embeddings=np.zeros((2, 4)), embeddings_source="zeros")
    with pytest.raises(ValueError, match="embeddings_source"):
        transformer_block_trace(("a", "b"), d_model=8, embeddings=np.zeros((2, 8)))


def test_block_trace_intermediates_fit_together():
    trace = transformer_block_trace()
    np.testing.assert_allclose(trace.residual1, trace.x + trace.attention)
    np.testing.assert_allclose(trace.output, trace.residual1 + trace.ff)
    np.testing.assert_allclose(trace.norm1_mean, 0.0, atol=1e-12)
    np.testing.assert_allclose(trace.norm1_var, trace.x_var / (trace.x_var + trace.eps))
    np.testing.assert_allclose(trace.x_mean, trace.x.mean(axis=1))
    np.testing.assert_allclose(trace.attention_weights.sum(-1), 1.0)
    assert np.all(np.triu(trace.attention_weights, k=1) == 0.0)  # causal, as in GPT
    assert trace.hidden.shape == (len(trace.tokens), 32) and np.any(trace.pre_activation < 0)
    assert trace.block_numbers.tolist() == list(range(1, trace.n_layers + 1))
    assert trace.layer_outputs.shape == (trace.n_layers, len(trace.tokens), trace.d_model)
    # Brown et al. 2020, Table 2.1 (GPT-3 175B: 96 layers, d_model 12288) and section 2.1 (d_ff = 4 d_model).
    assert (trace.gpt3_layers, trace.gpt3_d_model, trace.gpt3_d_ff) == (96, 12_288, 49_152)
    data = json.loads(trace.to_json())
    assert data["kind"] == "TransformerBlockTrace"


def test_the_gelu_examples_show_what_gelu_does_as_torch_computes_it():
    """The three numbers the feed-forward step shows: a large one passed almost whole, a small positive shrunk, a negative near 0."""
    trace = transformer_block_trace()
    f = trace.focus
    big, small, low = (int(k) for k in trace.gelu_examples)
    before = torch.tensor(np.array(trace.pre_activation[f]))
    after = F.gelu(before, approximate="tanh").numpy()  # GPT-2's gelu_new
    np.testing.assert_allclose(trace.hidden[f], after, rtol=1e-12, atol=1e-15)
    assert big == int(before.argmax()) and low == int(before.argmin())
    assert before[small] == before[before >= 0.1].min()
    assert after[big] / before[big] > 0.99  # large: passed almost whole
    assert 0 < after[small] < 0.6 * before[small]  # small positive: shrunk, not kept (the false "keeps positive numbers")
    assert before[low] < -1 and -0.17 < after[low] < 0  # negative: near 0, never below GELU's minimum


def test_the_n_squared_part_passes_half_of_a_gpt2_small_layer_where_the_trace_says():
    """The takeaway's "reaches half at n = …" is the first n where Q Kᵀ and weights · V are at least half the layer."""
    from attention_math.generation import layer_macs

    trace = complexity_trace()

    def share(n):
        parts = layer_macs(n, trace.layer_d_model, trace.layer_d_ff)
        return (parts[1] + parts[2]) / sum(parts)

    n = trace.layer_half_n
    assert share(n) >= 0.5 > share(n - 1)
    assert n > trace.context_length  # past GPT-2's context: the scene must not say it dominates there
    assert trace.layer_heads * trace.layer_d_head == trace.layer_d_model
    # Doubling d_model and d_ff quadruples the projections and the feed-forward (n d²), not doubles them.
    narrow, wide = layer_macs(1024, 768, 3072), layer_macs(1024, 2 * 768, 2 * 3072)
    assert trace.projection_width_growth == sum(wide[p] for p in (0, 3, 4)) / sum(narrow[p] for p in (0, 3, 4)) == 4
    assert [round(p) for p in trace.layer_quadratic_percent] == [18, 31]


def test_kv_cache_counts_are_one_heads_projections_scores_and_mixing_part_by_part():
    """Each ratio the scene says is this one head's count (d = 4): its projections, q · k and the mixing, part by part."""
    trace = kv_cache_trace()
    d = trace.d

    def per_step(t):
        with_cache = 3 * einsum_macs("i,ij->j", (d,), (d, d)) + einsum_macs("j,tj->t", (d,), (t, d))
        with_cache += einsum_macs("t,tj->j", (t,), (t, d))
        without = 3 * einsum_macs("ti,ij->tj", (t, d), (d, d)) + einsum_macs("si,ti->st", (t, d), (t, d))
        without += einsum_macs("st,tj->sj", (t, t), (t, d))
        return with_cache, without

    counted = [per_step(t) for t in range(1, len(trace.tokens) + 1)]
    assert trace.macs_cached.tolist() == [c for c, _ in counted] and trace.macs_full.tolist() == [f for _, f in counted]
    assert format_number(trace.saving_ratio, 2) == format_number(sum(f for _, f in counted) / sum(c for c, _ in counted), 2)
    # The long texts: the same parts, summed over the steps (sums of t and t² in closed form, no loop of 4,096 einsums).
    for n, cached, full, ratio in zip(trace.long_lengths, trace.long_cached, trace.long_full, trace.long_ratios):
        n = int(n)
        sum_t, sum_t2 = n * (n + 1) // 2, n * (n + 1) * (2 * n + 1) // 6
        assert cached == 3 * d * d * n + 2 * d * sum_t
        assert full == 3 * d * d * sum_t + 2 * d * sum_t2
        assert format_number(ratio, 0) == format_number(full / cached, 0)


def test_kv_cache_largest_difference_is_shown_as_its_first_digit():
    trace = kv_cache_trace()
    largest = float(np.abs(trace.outputs - trace.recomputed_outputs).max())
    assert trace.max_difference == largest and largest > 0
    places = trace.difference_decimals
    assert 10.0**-places <= largest < 10.0 ** (1 - places)
    shown = format_number(largest, places)
    assert shown == "0." + "0" * (places - 1) + shown[-1] and shown[-1] != "0"


def test_grouped_query_cache_sizes_are_what_a_grouped_query_model_keeps():
    """Llama 2 70B's heads (64 query heads sharing 8 key/value heads of 128): the cache a Llama model with them keeps.

    The model is built with the real head counts but narrow heads (the cache scales with the head's width), so the
    test stays small; the numbers per token and layer are then scaled to the real head width.
    """
    from transformers import LlamaConfig, LlamaModel

    trace = kv_cache_trace()
    narrow, tokens = 2, 3

    def cache_numbers(kv_heads):
        config = LlamaConfig(
            vocab_size=10,
            hidden_size=trace.gqa_query_heads * narrow,
            intermediate_size=8,
            num_hidden_layers=1,
            num_attention_heads=trace.gqa_query_heads,
            num_key_value_heads=kv_heads,
            max_position_embeddings=16,
        )
        with torch.no_grad():
            cache = LlamaModel(config).eval()(torch.zeros(1, tokens, dtype=torch.long), use_cache=True).past_key_values
        per_token = sum(layer.keys.numel() + layer.values.numel() for layer in cache.layers) // tokens
        return per_token * trace.gqa_head_size // narrow

    # Llama 2 (Touvron et al. 2023), meta-llama/Llama-2-70b-hf's config.json: 80 layers, 64 heads of 128, 8 KV heads.
    assert (trace.gqa_model, trace.gqa_layers, trace.gqa_query_heads, trace.gqa_kv_heads) == ("Llama 2 70B", 80, 64, 8)
    assert trace.gqa_query_heads * trace.gqa_head_size == 8192
    assert cache_numbers(trace.gqa_query_heads) == trace.gqa_separate_numbers == 2 * 64 * 128
    assert cache_numbers(trace.gqa_kv_heads) == trace.gqa_shared_numbers == 2 * 8 * 128
    assert trace.gqa_shrink == trace.gqa_separate_numbers / trace.gqa_shared_numbers == 8


def test_the_largest_difference_is_written_as_its_digit_times_a_power_of_ten():
    trace = kv_cache_trace()
    written = trace.difference_digit * 10.0**trace.difference_exponent
    assert 1 <= trace.difference_digit <= 9
    assert abs(written - trace.max_difference) <= 0.5 * 10.0**trace.difference_exponent


def test_gpt2_smalls_heads_make_its_width():
    from transformers import GPT2Config

    trace = kv_cache_trace()
    gpt2 = GPT2Config()
    assert trace.real_heads == gpt2.n_head == 12
    assert trace.real_heads * trace.real_head_size == trace.real_d_model == gpt2.n_embd


def test_the_banded_mask_picture_is_a_local_causal_band():
    """Each query of the banded picture sees itself and the BAND - 1 tokens just before it, nothing else."""
    from attention_math.traces.transformer_block import BAND, BAND_TOKENS

    trace = transformer_block_trace()
    expected = [[0 <= i - j < BAND for j in range(BAND_TOKENS)] for i in range(BAND_TOKENS)]
    assert trace.banded_mask.tolist() == expected
    assert trace.banded_mask.sum(axis=1).tolist() == [min(i + 1, BAND) for i in range(BAND_TOKENS)]
    with pytest.raises(ValueError, match="band"):
        am.banded_causal_mask(4, 0)
