/*
 * graph.h - llama.cpp's compute buffer from its graph, tensor by tensor
 * (graph.c), where gguflint builds that graph.
 */
#ifndef GGUFLINT_PLAN_GRAPH_H
#define GGUFLINT_PLAN_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

struct planner;
struct plan;

/*
 * plan_graph_compute: the compute buffers llama.cpp reserves for pl's
 * settings at ubatch ub, placed as ggml-alloc places its scheduled graph:
 * the host's (the CPU's, or beside a GPU its host buffer's) into *host,
 * the GPU's into *dev (0 without one); false when gguflint does not build
 * this model's graph for pl (its architecture, a device other than
 * Vulkan, a quantized cache, weights kept off their layer's device, ...).
 */
bool plan_graph_compute(const struct planner *pn, const struct plan *pl,
    uint64_t ub, uint64_t *host, uint64_t *dev);

#endif
