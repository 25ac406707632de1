// Shared types and helpers of the L2 cache slice (tessera_l2).
package tessera_l2_pkg;

  // Result of a bank lookup (registered, one cycle after the request is granted).
  typedef enum logic [1:0] {
    ResHit         = 2'd0,  // served from the cache (read data valid / write done)
    ResMissAlloc   = 2'd1,  // miss, a way was reserved; the MSHR refills it, the engine replays
    ResMissBypass  = 2'd2,  // miss without allocation; the MSHR forwards the beat downstream
    ResRetry       = 2'd3   // line busy (reserved by another requester) or no way free: retry
  } res_kind_e;

  // Side operations on a bank (from the MSHRs and the maintenance engine; priority over lookups).
  typedef enum logic [2:0] {
    SideFill       = 3'd1,  // write a refilled line, mark it valid (still reserved for its owner)
    SideFillErr    = 3'd2,  // refill failed: release the reserved way (stays invalid)
    SideMaint      = 3'd3,  // maintenance on one (set, way): flush / invalidate / discard
    SideFillBeat   = 3'd4   // read-ahead: write one refill beat; the last beat of the line
                            // makes it valid and releases it (or releases it invalid on error)
  } side_op_e;

  // Maintenance operations (MAINT_CMD.op).
  typedef enum logic [1:0] {
    MaintNone    = 2'd0,
    MaintFlush   = 2'd1,  // write back dirty lines, keep them valid and clean
    MaintInval   = 2'd2,  // write back dirty lines, then invalidate
    MaintDiscard = 2'd3   // invalidate without writing back
  } maint_op_e;

  // Shared mode: a slice that is one of 2^k interleaved slices serves the addresses whose
  // bits [8 +: k] equal its slice id. Those bits are removed before indexing, so the slice
  // uses all of its sets ("compacted" address); they are re-inserted for write-backs.
  function automatic logic [31:0] compact_addr(input logic [31:0] a, input logic [1:0] k);
    logic [31:0] c;
    unique case (k)
      2'd0:    c = a;
      2'd1:    c = {1'b0, a[31:9], a[7:0]};
      2'd2:    c = {2'b0, a[31:10], a[7:0]};
      default: c = {3'b0, a[31:11], a[7:0]};
    endcase
    compact_addr = c;
  endfunction

  function automatic logic [31:0] expand_addr(input logic [31:0] c, input logic [1:0] k, input logic [2:0] id);
    logic [31:0] a;
    unique case (k)
      2'd0:    a = c;
      2'd1:    a = {c[30:8], id[0], c[7:0]};
      2'd2:    a = {c[29:8], id[1:0], c[7:0]};
      default: a = {c[28:8], id, c[7:0]};
    endcase
    expand_addr = a;
  endfunction

  // Set-index hash (CTRL.set_hash, see tessera_l2 "address decode"): tag bit i (of
  // tag_bits) is XORed into bit i mod lset_bits of the result; zero when en is clear. The
  // caller takes the low lset_bits bits (lset_bits <= 8).
  function automatic logic [7:0] set_fold(input logic [25:0] tag, input int unsigned tag_bits,
                                          input int unsigned lset_bits, input logic en);
    logic [7:0] h;
    h = '0;
    for (int unsigned i = 0; i < 26; i++)
      if (i < tag_bits) h[i % lset_bits] = h[i % lset_bits] ^ tag[i];
    set_fold = en ? h : 8'd0;
  endfunction

  // a = address bits [10:8]
  function automatic logic in_slice(input logic [2:0] a, input logic [1:0] k, input logic [2:0] id);
    logic ok;
    unique case (k)
      2'd0:    ok = 1'b1;
      2'd1:    ok = (a[0] == id[0]);
      2'd2:    ok = (a[1:0] == id[1:0]);
      default: ok = (a == id);
    endcase
    in_slice = ok;
  endfunction

endpackage
