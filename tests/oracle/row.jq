# tests/oracle/row.jq - one answer of llama-oracle (its JSON object) as
# the measured tables' columns from status on (measure.sh and
# measure-cuda.sh share it): ok or refused: WHY, the context, flash
# attention, the model bytes (REPACK apart), context and compute bytes,
# the log's K, V, R, S and output MiB, and every buffer as
# NAME=model/context/compute.
if .error then [("refused: " + .error | gsub("\t"; " ")),
    "", "", "", "", "", "", "", "", "", "", "", ""] | @tsv
else [ "ok", .n_ctx, (if .flash_attn then "on" else "off" end),
  ([.buffers[] | select(.name | test("REPACK") | not) | .model]
    | add),
  ([.buffers[] | select(.name | test("REPACK")) | .model] | add
    // 0),
  ([.buffers[].context] | add), ([.buffers[].compute] | add),
  .k_mib, .v_mib, .r_mib, .s_mib, .output_mib,
  ([.buffers[] | "\(.name)=\(.model)/\(.context)/\(.compute)"]
    | join(";")) ] | @tsv end
