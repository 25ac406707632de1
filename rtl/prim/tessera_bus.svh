// Tessera bus macros: typedefs of the AXI4, APB and OBI channel structs and
// request/response pairs, and assign helpers between a struct and flat pins.
// rtl/prim/tessera_bus_pkg.sv instantiates the typedefs once for every bus
// flavour of the chip; modules use the package types, never these typedefs
// themselves. The flat-pin helpers are for testbench wrappers and for the
// simulation top, which keep flat pin lists (docs/fabric.md "Bus types").
//
// Conventions of a request/response pair:
//   *_req_t  every signal the manager drives (channel payloads, valids, the
//            readies of the response channels);
//   *_rsp_t  every signal the subordinate drives.
// A module's subordinate port is `slv_req_i`/`slv_rsp_o`, a manager port
// `mst_req_o`/`mst_rsp_i`.
`ifndef TESSERA_BUS_SVH
`define TESSERA_BUS_SVH

// ---------------------------------------------------------------- AXI4 channels
// Address channel (AW and AR share the layout).
`define TESSERA_AXI_AX_CHAN_T(name_t, addr_t, id_t, user_t) \
  typedef struct packed {                                       \
    id_t         id;                                            \
    addr_t       addr;                                          \
    logic [7:0]  len;                                           \
    logic [2:0]  size;                                          \
    logic [1:0]  burst;                                         \
    logic [3:0]  cache;                                         \
    logic [2:0]  prot;                                          \
    logic [3:0]  qos;                                           \
    user_t       user;                                          \
  } name_t;

`define TESSERA_AXI_W_CHAN_T(name_t, data_t, strb_t, user_t) \
  typedef struct packed {                                     \
    data_t data;                                              \
    strb_t strb;                                              \
    logic  last;                                              \
    user_t user;                                              \
  } name_t;

`define TESSERA_AXI_B_CHAN_T(name_t, id_t, user_t) \
  typedef struct packed {                           \
    id_t        id;                                 \
    logic [1:0] resp;                               \
    user_t      user;                               \
  } name_t;

`define TESSERA_AXI_R_CHAN_T(name_t, data_t, id_t, user_t) \
  typedef struct packed {                                   \
    id_t        id;                                         \
    data_t      data;                                       \
    logic [1:0] resp;                                       \
    logic       last;                                       \
    user_t      user;                                       \
  } name_t;

`define TESSERA_AXI_REQ_T(name_t, ax_t, w_t) \
  typedef struct packed {                     \
    ax_t  aw;                                 \
    logic aw_valid;                           \
    w_t   w;                                  \
    logic w_valid;                            \
    logic b_ready;                            \
    ax_t  ar;                                 \
    logic ar_valid;                           \
    logic r_ready;                            \
  } name_t;

`define TESSERA_AXI_RSP_T(name_t, b_t, r_t) \
  typedef struct packed {                    \
    logic aw_ready;                          \
    logic w_ready;                           \
    b_t   b;                                 \
    logic b_valid;                           \
    logic ar_ready;                          \
    r_t   r;                                 \
    logic r_valid;                           \
  } name_t;

// All AXI4 types of one flavour: <p>_ax_chan_t, <p>_w_chan_t, <p>_b_chan_t,
// <p>_r_chan_t, <p>_req_t, <p>_rsp_t.
`define TESSERA_AXI_TYPEDEF_ALL(p, addr_t, id_t, data_t, strb_t, user_t) \
  `TESSERA_AXI_AX_CHAN_T(p``_ax_chan_t, addr_t, id_t, user_t)            \
  `TESSERA_AXI_W_CHAN_T(p``_w_chan_t, data_t, strb_t, user_t)            \
  `TESSERA_AXI_B_CHAN_T(p``_b_chan_t, id_t, user_t)                      \
  `TESSERA_AXI_R_CHAN_T(p``_r_chan_t, data_t, id_t, user_t)              \
  `TESSERA_AXI_REQ_T(p``_req_t, p``_ax_chan_t, p``_w_chan_t)             \
  `TESSERA_AXI_RSP_T(p``_rsp_t, p``_b_chan_t, p``_r_chan_t)

// ---------------------------------------------------------------- APB4
// The request carries psel/penable of one subordinate; pstrb is per byte.
`define TESSERA_APB_TYPEDEF_ALL(p, addr_t, data_t, strb_t) \
  typedef struct packed {                                   \
    logic  psel;                                            \
    logic  penable;                                         \
    logic  pwrite;                                          \
    logic [2:0] pprot;                                      \
    addr_t paddr;                                           \
    data_t pwdata;                                          \
    strb_t pstrb;                                           \
  } p``_req_t;                                              \
  typedef struct packed {                                   \
    logic  pready;                                          \
    data_t prdata;                                          \
    logic  pslverr;                                         \
  } p``_rsp_t;

// ---------------------------------------------------------------- OBI (A and R channels)
`define TESSERA_OBI_TYPEDEF_ALL(p, addr_t, data_t, be_t) \
  typedef struct packed {                                 \
    logic  req;                                           \
    addr_t addr;                                          \
    logic  we;                                            \
    be_t   be;                                            \
    data_t wdata;                                         \
  } p``_req_t;                                            \
  typedef struct packed {                                 \
    logic  gnt;                                           \
    logic  rvalid;                                        \
    data_t rdata;                                         \
    logic  err;                                           \
  } p``_rsp_t;

// ---------------------------------------------------------------- flat pins <-> structs
// For testbench wrappers and the simulation top only. A flat pin is named
// <pfx><signal><sfx><idx>, e.g. s_axi_awid_i[2] is pfx s_axi_, sfx _i, idx [2]
// (idx may be empty). Flat pins narrower than the struct field are zero-extended
// into requests/responses and truncated out of them; the fields a flat port
// does not have (cache, prot, qos, user) are set to zero by the *_FROM_FLAT
// macros when the port has none of them (the _MIN variants).

// request fields of the AW, W and AR channels and the two readies, from flat pins
`define TESSERA_AXI_REQ_FROM_FLAT(req, pfx, sfx, idx)                        \
  assign req.aw.id    = pfx``awid``sfx idx;                                  \
  assign req.aw.addr  = pfx``awaddr``sfx idx;                                \
  assign req.aw.len   = pfx``awlen``sfx idx;                                 \
  assign req.aw.size  = pfx``awsize``sfx idx;                                \
  assign req.aw.burst = pfx``awburst``sfx idx;                               \
  assign req.aw.cache = pfx``awcache``sfx idx;                               \
  assign req.aw.prot  = pfx``awprot``sfx idx;                                \
  assign req.aw.qos   = pfx``awqos``sfx idx;                                 \
  assign req.aw.user  = '0;                                                  \
  assign req.aw_valid = pfx``awvalid``sfx idx;                               \
  assign req.w.data   = pfx``wdata``sfx idx;                                 \
  assign req.w.strb   = pfx``wstrb``sfx idx;                                 \
  assign req.w.last   = pfx``wlast``sfx idx;                                 \
  assign req.w.user   = '0;                                                  \
  assign req.w_valid  = pfx``wvalid``sfx idx;                                \
  assign req.b_ready  = pfx``bready``sfx idx;                                \
  assign req.ar.id    = pfx``arid``sfx idx;                                  \
  assign req.ar.addr  = pfx``araddr``sfx idx;                                \
  assign req.ar.len   = pfx``arlen``sfx idx;                                 \
  assign req.ar.size  = pfx``arsize``sfx idx;                                \
  assign req.ar.burst = pfx``arburst``sfx idx;                               \
  assign req.ar.cache = pfx``arcache``sfx idx;                               \
  assign req.ar.prot  = pfx``arprot``sfx idx;                                \
  assign req.ar.qos   = pfx``arqos``sfx idx;                                 \
  assign req.ar.user  = '0;                                                  \
  assign req.ar_valid = pfx``arvalid``sfx idx;                               \
  assign req.r_ready  = pfx``rready``sfx idx;

// the same for a flat port without cache/prot/qos (set to zero)
`define TESSERA_AXI_REQ_FROM_FLAT_MIN(req, pfx, sfx, idx)                    \
  assign req.aw.id    = pfx``awid``sfx idx;                                  \
  assign req.aw.addr  = pfx``awaddr``sfx idx;                                \
  assign req.aw.len   = pfx``awlen``sfx idx;                                 \
  assign req.aw.size  = pfx``awsize``sfx idx;                                \
  assign req.aw.burst = pfx``awburst``sfx idx;                               \
  assign req.aw.cache = '0;                                                  \
  assign req.aw.prot  = '0;                                                  \
  assign req.aw.qos   = '0;                                                  \
  assign req.aw.user  = '0;                                                  \
  assign req.aw_valid = pfx``awvalid``sfx idx;                               \
  assign req.w.data   = pfx``wdata``sfx idx;                                 \
  assign req.w.strb   = pfx``wstrb``sfx idx;                                 \
  assign req.w.last   = pfx``wlast``sfx idx;                                 \
  assign req.w.user   = '0;                                                  \
  assign req.w_valid  = pfx``wvalid``sfx idx;                                \
  assign req.b_ready  = pfx``bready``sfx idx;                                \
  assign req.ar.id    = pfx``arid``sfx idx;                                  \
  assign req.ar.addr  = pfx``araddr``sfx idx;                                \
  assign req.ar.len   = pfx``arlen``sfx idx;                                 \
  assign req.ar.size  = pfx``arsize``sfx idx;                                \
  assign req.ar.burst = pfx``arburst``sfx idx;                               \
  assign req.ar.cache = '0;                                                  \
  assign req.ar.prot  = '0;                                                  \
  assign req.ar.qos   = '0;                                                  \
  assign req.ar.user  = '0;                                                  \
  assign req.ar_valid = pfx``arvalid``sfx idx;                               \
  assign req.r_ready  = pfx``rready``sfx idx;

// flat request pins from a request struct (cache/prot/qos included)
`define TESSERA_AXI_FLAT_FROM_REQ(pfx, sfx, idx, req)                        \
  `TESSERA_AXI_FLAT_FROM_REQ_MIN(pfx, sfx, idx, req)                         \
  assign pfx``awcache``sfx idx = req.aw.cache;                               \
  assign pfx``awprot``sfx idx  = req.aw.prot;                                \
  assign pfx``awqos``sfx idx   = req.aw.qos;                                 \
  assign pfx``arcache``sfx idx = req.ar.cache;                               \
  assign pfx``arprot``sfx idx  = req.ar.prot;                                \
  assign pfx``arqos``sfx idx   = req.ar.qos;

// flat request pins without cache/prot/qos
`define TESSERA_AXI_FLAT_FROM_REQ_MIN(pfx, sfx, idx, req)                    \
  assign pfx``awid``sfx idx    = req.aw.id;                                  \
  assign pfx``awaddr``sfx idx  = req.aw.addr;                                \
  assign pfx``awlen``sfx idx   = req.aw.len;                                 \
  assign pfx``awsize``sfx idx  = req.aw.size;                                \
  assign pfx``awburst``sfx idx = req.aw.burst;                               \
  assign pfx``awvalid``sfx idx = req.aw_valid;                               \
  assign pfx``wdata``sfx idx   = req.w.data;                                 \
  assign pfx``wstrb``sfx idx   = req.w.strb;                                 \
  assign pfx``wlast``sfx idx   = req.w.last;                                 \
  assign pfx``wvalid``sfx idx  = req.w_valid;                                \
  assign pfx``bready``sfx idx  = req.b_ready;                                \
  assign pfx``arid``sfx idx    = req.ar.id;                                  \
  assign pfx``araddr``sfx idx  = req.ar.addr;                                \
  assign pfx``arlen``sfx idx   = req.ar.len;                                 \
  assign pfx``arsize``sfx idx  = req.ar.size;                                \
  assign pfx``arburst``sfx idx = req.ar.burst;                               \
  assign pfx``arvalid``sfx idx = req.ar_valid;                               \
  assign pfx``rready``sfx idx  = req.r_ready;

// response struct from flat pins
`define TESSERA_AXI_RSP_FROM_FLAT(rsp, pfx, sfx, idx)                        \
  assign rsp.aw_ready = pfx``awready``sfx idx;                               \
  assign rsp.w_ready  = pfx``wready``sfx idx;                                \
  assign rsp.b.id     = pfx``bid``sfx idx;                                   \
  assign rsp.b.resp   = pfx``bresp``sfx idx;                                 \
  assign rsp.b.user   = '0;                                                  \
  assign rsp.b_valid  = pfx``bvalid``sfx idx;                                \
  assign rsp.ar_ready = pfx``arready``sfx idx;                               \
  assign rsp.r.id     = pfx``rid``sfx idx;                                   \
  assign rsp.r.data   = pfx``rdata``sfx idx;                                 \
  assign rsp.r.resp   = pfx``rresp``sfx idx;                                 \
  assign rsp.r.last   = pfx``rlast``sfx idx;                                 \
  assign rsp.r.user   = '0;                                                  \
  assign rsp.r_valid  = pfx``rvalid``sfx idx;

// flat response pins from a response struct
`define TESSERA_AXI_FLAT_FROM_RSP(pfx, sfx, idx, rsp)                        \
  assign pfx``awready``sfx idx = rsp.aw_ready;                               \
  assign pfx``wready``sfx idx  = rsp.w_ready;                                \
  assign pfx``bid``sfx idx     = rsp.b.id;                                   \
  assign pfx``bresp``sfx idx   = rsp.b.resp;                                 \
  assign pfx``bvalid``sfx idx  = rsp.b_valid;                                \
  assign pfx``arready``sfx idx = rsp.ar_ready;                               \
  assign pfx``rid``sfx idx     = rsp.r.id;                                   \
  assign pfx``rdata``sfx idx   = rsp.r.data;                                 \
  assign pfx``rresp``sfx idx   = rsp.r.resp;                                 \
  assign pfx``rlast``sfx idx   = rsp.r.last;                                 \
  assign pfx``rvalid``sfx idx  = rsp.r_valid;

// APB: request from flat pins p<psel|penable|pwrite|paddr|pwdata|pstrb>
`define TESSERA_APB_REQ_FROM_FLAT(req, pfx, sfx, idx)                        \
  assign req.psel    = pfx``psel``sfx idx;                                   \
  assign req.penable = pfx``penable``sfx idx;                                \
  assign req.pwrite  = pfx``pwrite``sfx idx;                                 \
  assign req.pprot   = pfx``pprot``sfx idx;                                  \
  assign req.paddr   = pfx``paddr``sfx idx;                                  \
  assign req.pwdata  = pfx``pwdata``sfx idx;                                 \
  assign req.pstrb   = pfx``pstrb``sfx idx;

`define TESSERA_APB_FLAT_FROM_RSP(pfx, sfx, idx, rsp)                        \
  assign pfx``pready``sfx idx  = rsp.pready;                                 \
  assign pfx``prdata``sfx idx  = rsp.prdata;                                 \
  assign pfx``pslverr``sfx idx = rsp.pslverr;

// OBI: request from flat pins <req|addr|we|be|wdata>, flat pins from the response
`define TESSERA_OBI_REQ_FROM_FLAT(oreq, pfx, sfx, idx)                       \
  assign oreq.req   = pfx``req``sfx idx;                                     \
  assign oreq.addr  = pfx``addr``sfx idx;                                    \
  assign oreq.we    = pfx``we``sfx idx;                                      \
  assign oreq.be    = pfx``be``sfx idx;                                      \
  assign oreq.wdata = pfx``wdata``sfx idx;

`define TESSERA_OBI_FLAT_FROM_RSP(pfx, sfx, idx, rsp)                        \
  assign pfx``gnt``sfx idx    = rsp.gnt;                                     \
  assign pfx``rvalid``sfx idx = rsp.rvalid;                                  \
  assign pfx``rdata``sfx idx  = rsp.rdata;                                   \
  assign pfx``err``sfx idx    = rsp.err;

// OBI manager side of flat pins: a request to flat pins, a response from flat pins
`define TESSERA_OBI_FLAT_FROM_REQ(pfx, sfx, idx, oreq)                       \
  assign pfx``req``sfx idx   = oreq.req;                                     \
  assign pfx``addr``sfx idx  = oreq.addr;                                    \
  assign pfx``we``sfx idx    = oreq.we;                                      \
  assign pfx``be``sfx idx    = oreq.be;                                      \
  assign pfx``wdata``sfx idx = oreq.wdata;

`define TESSERA_OBI_RSP_FROM_FLAT(rsp, pfx, sfx, idx)                        \
  assign rsp.gnt    = pfx``gnt``sfx idx;                                     \
  assign rsp.rvalid = pfx``rvalid``sfx idx;                                  \
  assign rsp.rdata  = pfx``rdata``sfx idx;                                   \
  assign rsp.err    = pfx``err``sfx idx;


// ---------------------------------------------------------------- a module's bus port <-> its signals
// A module whose logic is written on per-signal names keeps them as internal signals
// <pfx><signal> (e.g. m_axi_awaddr) and connects them to its struct port with these
// macros (declarations and assigns). IDs are idw bits (<= the flavour's ID width): the
// request's upper ID bits are zero, the response's are ignored. The _MIN variants are
// for a port without cache/prot/qos (driven to zero); the _RD variants for a read-only
// manager (AW and W idle, B never accepted). Response user bits are ignored, request
// user bits zero.
`define TESSERA_AXI_SIGS_DECL_MIN(pfx, idw)                                    \
  logic [idw-1:0] pfx``awid, pfx``arid, pfx``bid, pfx``rid;                    \
  logic [31:0]    pfx``awaddr, pfx``araddr;                                    \
  logic [7:0]     pfx``awlen, pfx``arlen;                                      \
  logic [2:0]     pfx``awsize, pfx``arsize;                                    \
  logic [1:0]     pfx``awburst, pfx``arburst, pfx``bresp, pfx``rresp;          \
  logic           pfx``awvalid, pfx``awready, pfx``arvalid, pfx``arready;      \
  logic           pfx``wlast, pfx``wvalid, pfx``wready;                        \
  logic           pfx``bvalid, pfx``bready, pfx``rlast, pfx``rvalid, pfx``rready; \
  logic [tessera_bus_pkg::DataBits-1:0] pfx``wdata, pfx``rdata;                \
  logic [tessera_bus_pkg::StrbBits-1:0] pfx``wstrb;

`define TESSERA_AXI_SIGS_DECL(pfx, idw)                                        \
  `TESSERA_AXI_SIGS_DECL_MIN(pfx, idw)                                         \
  logic [3:0] pfx``awcache, pfx``arcache, pfx``awqos, pfx``arqos;              \
  logic [2:0] pfx``awprot, pfx``arprot;

// manager port: request from the signals, the signals from the response
`define TESSERA_AXI_MST_CONNECT_BASE(req, rsp, pfx)                            \
  assign req.aw.id    = tessera_bus_pkg::id_t'(pfx``awid);                     \
  assign req.aw.addr  = pfx``awaddr;                                           \
  assign req.aw.len   = pfx``awlen;                                            \
  assign req.aw.size  = pfx``awsize;                                           \
  assign req.aw.burst = pfx``awburst;                                          \
  assign req.aw.user  = '0;                                                    \
  assign req.aw_valid = pfx``awvalid;                                          \
  assign req.w.data   = pfx``wdata;                                            \
  assign req.w.strb   = pfx``wstrb;                                            \
  assign req.w.last   = pfx``wlast;                                            \
  assign req.w.user   = '0;                                                    \
  assign req.w_valid  = pfx``wvalid;                                           \
  assign req.b_ready  = pfx``bready;                                           \
  assign req.ar.id    = tessera_bus_pkg::id_t'(pfx``arid);                     \
  assign req.ar.addr  = pfx``araddr;                                           \
  assign req.ar.len   = pfx``arlen;                                            \
  assign req.ar.size  = pfx``arsize;                                           \
  assign req.ar.burst = pfx``arburst;                                          \
  assign req.ar.user  = '0;                                                    \
  assign req.ar_valid = pfx``arvalid;                                          \
  assign req.r_ready  = pfx``rready;                                           \
  assign pfx``awready = rsp.aw_ready;                                          \
  assign pfx``wready  = rsp.w_ready;                                           \
  assign pfx``bid     = rsp.b.id[$bits(pfx``bid)-1:0];                         \
  assign pfx``bresp   = rsp.b.resp;                                            \
  assign pfx``bvalid  = rsp.b_valid;                                           \
  assign pfx``arready = rsp.ar_ready;                                          \
  assign pfx``rid     = rsp.r.id[$bits(pfx``rid)-1:0];                         \
  assign pfx``rdata   = rsp.r.data;                                            \
  assign pfx``rresp   = rsp.r.resp;                                            \
  assign pfx``rlast   = rsp.r.last;                                            \
  assign pfx``rvalid  = rsp.r_valid;                                           \
  logic pfx``unused_rsp;                                                       \
  assign pfx``unused_rsp = ^{rsp.b.id, rsp.r.id, rsp.b.user, rsp.r.user};

`define TESSERA_AXI_MST_CONNECT_MIN(req, rsp, pfx)                             \
  `TESSERA_AXI_MST_CONNECT_BASE(req, rsp, pfx)                                 \
  assign req.aw.cache = '0;                                                    \
  assign req.aw.prot  = '0;                                                    \
  assign req.aw.qos   = '0;                                                    \
  assign req.ar.cache = '0;                                                    \
  assign req.ar.prot  = '0;                                                    \
  assign req.ar.qos   = '0;

`define TESSERA_AXI_MST_CONNECT(req, rsp, pfx)                                 \
  `TESSERA_AXI_MST_CONNECT_BASE(req, rsp, pfx)                                 \
  assign req.aw.cache = pfx``awcache;                                          \
  assign req.aw.prot  = pfx``awprot;                                           \
  assign req.aw.qos   = pfx``awqos;                                            \
  assign req.ar.cache = pfx``arcache;                                          \
  assign req.ar.prot  = pfx``arprot;                                           \
  assign req.ar.qos   = pfx``arqos;

// read-only manager: AR and R signals (with cache/prot/qos); AW, W idle, B not accepted
`define TESSERA_AXI_SIGS_DECL_RD(pfx, idw)                                     \
  logic [idw-1:0] pfx``arid, pfx``rid;                                         \
  logic [31:0]    pfx``araddr;                                                 \
  logic [7:0]     pfx``arlen;                                                  \
  logic [2:0]     pfx``arsize, pfx``arprot;                                    \
  logic [1:0]     pfx``arburst, pfx``rresp;                                    \
  logic [3:0]     pfx``arcache, pfx``arqos;                                    \
  logic           pfx``arvalid, pfx``arready, pfx``rlast, pfx``rvalid, pfx``rready; \
  logic [tessera_bus_pkg::DataBits-1:0] pfx``rdata;

`define TESSERA_AXI_MST_CONNECT_RD(req, rsp, pfx)                              \
  assign req.aw       = '0;                                                    \
  assign req.aw_valid = 1'b0;                                                  \
  assign req.w        = '0;                                                    \
  assign req.w_valid  = 1'b0;                                                  \
  assign req.b_ready  = 1'b0;                                                  \
  assign req.ar.id    = tessera_bus_pkg::id_t'(pfx``arid);                     \
  assign req.ar.addr  = pfx``araddr;                                           \
  assign req.ar.len   = pfx``arlen;                                            \
  assign req.ar.size  = pfx``arsize;                                           \
  assign req.ar.burst = pfx``arburst;                                          \
  assign req.ar.cache = pfx``arcache;                                          \
  assign req.ar.prot  = pfx``arprot;                                           \
  assign req.ar.qos   = pfx``arqos;                                            \
  assign req.ar.user  = '0;                                                    \
  assign req.ar_valid = pfx``arvalid;                                          \
  assign req.r_ready  = pfx``rready;                                           \
  assign pfx``arready = rsp.ar_ready;                                          \
  assign pfx``rid     = rsp.r.id[$bits(pfx``rid)-1:0];                         \
  assign pfx``rdata   = rsp.r.data;                                            \
  assign pfx``rresp   = rsp.r.resp;                                            \
  assign pfx``rlast   = rsp.r.last;                                            \
  assign pfx``rvalid  = rsp.r_valid;                                           \
  logic pfx``unused_rsp;                                                       \
  assign pfx``unused_rsp = ^{rsp.aw_ready, rsp.w_ready, rsp.b, rsp.b_valid, rsp.r.id, rsp.r.user};

// flat read-only manager pins (AR and R) from/to the structs: testbench wrappers
`define TESSERA_AXI_FLAT_FROM_REQ_RD(pfx, sfx, idx, req)                     \
  assign pfx``arid``sfx idx    = req.ar.id;                                  \
  assign pfx``araddr``sfx idx  = req.ar.addr;                                \
  assign pfx``arlen``sfx idx   = req.ar.len;                                 \
  assign pfx``arsize``sfx idx  = req.ar.size;                                \
  assign pfx``arburst``sfx idx = req.ar.burst;                               \
  assign pfx``arcache``sfx idx = req.ar.cache;                               \
  assign pfx``arprot``sfx idx  = req.ar.prot;                                \
  assign pfx``arqos``sfx idx   = req.ar.qos;                                 \
  assign pfx``arvalid``sfx idx = req.ar_valid;                               \
  assign pfx``rready``sfx idx  = req.r_ready;

`define TESSERA_AXI_RSP_FROM_FLAT_RD(rsp, pfx, sfx, idx)                     \
  assign rsp.aw_ready = 1'b0;                                                \
  assign rsp.w_ready  = 1'b0;                                                \
  assign rsp.b        = '0;                                                  \
  assign rsp.b_valid  = 1'b0;                                                \
  assign rsp.ar_ready = pfx``arready``sfx idx;                               \
  assign rsp.r.id     = pfx``rid``sfx idx;                                   \
  assign rsp.r.data   = pfx``rdata``sfx idx;                                 \
  assign rsp.r.resp   = pfx``rresp``sfx idx;                                 \
  assign rsp.r.last   = pfx``rlast``sfx idx;                                 \
  assign rsp.r.user   = '0;                                                  \
  assign rsp.r_valid  = pfx``rvalid``sfx idx;

`define TESSERA_AXI_REQ_FROM_FLAT_RD(req, pfx, sfx, idx)                     \
  assign req.aw       = '0;                                                  \
  assign req.aw_valid = 1'b0;                                                \
  assign req.w        = '0;                                                  \
  assign req.w_valid  = 1'b0;                                                \
  assign req.b_ready  = 1'b0;                                                \
  assign req.ar.id    = pfx``arid``sfx idx;                                  \
  assign req.ar.addr  = pfx``araddr``sfx idx;                                \
  assign req.ar.len   = pfx``arlen``sfx idx;                                 \
  assign req.ar.size  = pfx``arsize``sfx idx;                                \
  assign req.ar.burst = pfx``arburst``sfx idx;                               \
  assign req.ar.cache = pfx``arcache``sfx idx;                               \
  assign req.ar.prot  = pfx``arprot``sfx idx;                                \
  assign req.ar.qos   = pfx``arqos``sfx idx;                                 \
  assign req.ar.user  = '0;                                                  \
  assign req.ar_valid = pfx``arvalid``sfx idx;                               \
  assign req.r_ready  = pfx``rready``sfx idx;

`define TESSERA_AXI_FLAT_FROM_RSP_RD(pfx, sfx, idx, rsp)                     \
  assign pfx``arready``sfx idx = rsp.ar_ready;                               \
  assign pfx``rid``sfx idx     = rsp.r.id;                                   \
  assign pfx``rdata``sfx idx   = rsp.r.data;                                 \
  assign pfx``rresp``sfx idx   = rsp.r.resp;                                 \
  assign pfx``rlast``sfx idx   = rsp.r.last;                                 \
  assign pfx``rvalid``sfx idx  = rsp.r_valid;

// one read channel pair carried as channel structs (an AR payload with its valid and
// ready, an R payload with its valid and ready), e.g. tessera_l2's read-only master:
// flat AR pins from the AR channel, the R channel from flat R pins
`define TESSERA_AXI_FLAT_FROM_AR(pfx, sfx, idx, ar, ar_valid, ar_ready, r_ready) \
  assign pfx``arid``sfx idx    = ar.id;                                      \
  assign pfx``araddr``sfx idx  = ar.addr;                                    \
  assign pfx``arlen``sfx idx   = ar.len;                                     \
  assign pfx``arsize``sfx idx  = ar.size;                                    \
  assign pfx``arburst``sfx idx = ar.burst;                                   \
  assign pfx``arcache``sfx idx = ar.cache;                                   \
  assign pfx``arprot``sfx idx  = ar.prot;                                    \
  assign pfx``arqos``sfx idx   = ar.qos;                                     \
  assign pfx``arvalid``sfx idx = ar_valid;                                   \
  assign pfx``rready``sfx idx  = r_ready;

`define TESSERA_AXI_R_FROM_FLAT(r, r_valid, ar_ready, pfx, sfx, idx)         \
  assign ar_ready = pfx``arready``sfx idx;                                   \
  assign r.id     = pfx``rid``sfx idx;                                       \
  assign r.data   = pfx``rdata``sfx idx;                                     \
  assign r.resp   = pfx``rresp``sfx idx;                                     \
  assign r.last   = pfx``rlast``sfx idx;                                     \
  assign r.user   = '0;                                                      \
  assign r_valid  = pfx``rvalid``sfx idx;

// APB manager side of flat pins: a request to flat pins, a response from flat pins
`define TESSERA_APB_FLAT_FROM_REQ(pfx, sfx, idx, req)                        \
  assign pfx``psel``sfx idx    = req.psel;                                   \
  assign pfx``penable``sfx idx = req.penable;                                \
  assign pfx``pwrite``sfx idx  = req.pwrite;                                 \
  assign pfx``pprot``sfx idx   = req.pprot;                                  \
  assign pfx``paddr``sfx idx   = req.paddr;                                  \
  assign pfx``pwdata``sfx idx  = req.pwdata;                                 \
  assign pfx``pstrb``sfx idx   = req.pstrb;

`define TESSERA_APB_RSP_FROM_FLAT(rsp, pfx, sfx, idx)                        \
  assign rsp.pready  = pfx``pready``sfx idx;                                 \
  assign rsp.prdata  = pfx``prdata``sfx idx;                                 \
  assign rsp.pslverr = pfx``pslverr``sfx idx;

// ---------------------------------------------------------------- port arrays <-> per-signal arrays
// n ports of the engine flavour (axi_req_t/axi_rsp_t) as logic [n-1:0][Axi*Bits-1:0]
// arrays (Yosys reads no packed arrays of structs), unpacked into per-signal arrays
// <pfx><signal>[n] that a module's logic indexes. IDs are idw bits (<= IdBits).
`define TESSERA_AXI_ARRAY_DECL(pfx, n, idw)                                      \
  logic [n-1:0][idw-1:0] pfx``awid, pfx``arid, pfx``bid, pfx``rid;              \
  logic [n-1:0][31:0]    pfx``awaddr, pfx``araddr;                              \
  logic [n-1:0][7:0]     pfx``awlen, pfx``arlen;                                \
  logic [n-1:0][2:0]     pfx``awsize, pfx``arsize, pfx``awprot, pfx``arprot;    \
  logic [n-1:0][1:0]     pfx``awburst, pfx``arburst, pfx``bresp, pfx``rresp;    \
  logic [n-1:0][3:0]     pfx``awcache, pfx``arcache, pfx``awqos, pfx``arqos;    \
  logic [n-1:0]          pfx``awvalid, pfx``awready, pfx``arvalid, pfx``arready; \
  logic [n-1:0]          pfx``wlast, pfx``wvalid, pfx``wready;                  \
  logic [n-1:0]          pfx``bvalid, pfx``bready, pfx``rlast, pfx``rvalid, pfx``rready; \
  logic [n-1:0][tessera_bus_pkg::DataBits-1:0] pfx``wdata, pfx``rdata;         \
  logic [n-1:0][tessera_bus_pkg::StrbBits-1:0] pfx``wstrb;

// subordinate ports: the request signals from reqs[k], rsps[k] from the response signals
`define TESSERA_AXI_SLV_ARRAY_CONNECT(reqs, rsps, pfx, n, idw)                   \
  for (genvar pfx``k = 0; pfx``k < n; pfx``k++) begin : g_``pfx``port           \
    tessera_bus_pkg::axi_req_t req;                                             \
    tessera_bus_pkg::axi_rsp_t rsp;                                             \
    logic                      unused_req;                                      \
    assign req                  = reqs[pfx``k];                                 \
    assign pfx``awid[pfx``k]    = req.aw.id[idw-1:0];                           \
    assign pfx``awaddr[pfx``k]  = req.aw.addr;                                  \
    assign pfx``awlen[pfx``k]   = req.aw.len;                                   \
    assign pfx``awsize[pfx``k]  = req.aw.size;                                  \
    assign pfx``awburst[pfx``k] = req.aw.burst;                                 \
    assign pfx``awcache[pfx``k] = req.aw.cache;                                 \
    assign pfx``awprot[pfx``k]  = req.aw.prot;                                  \
    assign pfx``awqos[pfx``k]   = req.aw.qos;                                   \
    assign pfx``awvalid[pfx``k] = req.aw_valid;                                 \
    assign pfx``wdata[pfx``k]   = req.w.data;                                   \
    assign pfx``wstrb[pfx``k]   = req.w.strb;                                   \
    assign pfx``wlast[pfx``k]   = req.w.last;                                   \
    assign pfx``wvalid[pfx``k]  = req.w_valid;                                  \
    assign pfx``bready[pfx``k]  = req.b_ready;                                  \
    assign pfx``arid[pfx``k]    = req.ar.id[idw-1:0];                           \
    assign pfx``araddr[pfx``k]  = req.ar.addr;                                  \
    assign pfx``arlen[pfx``k]   = req.ar.len;                                   \
    assign pfx``arsize[pfx``k]  = req.ar.size;                                  \
    assign pfx``arburst[pfx``k] = req.ar.burst;                                 \
    assign pfx``arcache[pfx``k] = req.ar.cache;                                 \
    assign pfx``arprot[pfx``k]  = req.ar.prot;                                  \
    assign pfx``arqos[pfx``k]   = req.ar.qos;                                   \
    assign pfx``arvalid[pfx``k] = req.ar_valid;                                 \
    assign pfx``rready[pfx``k]  = req.r_ready;                                  \
    assign unused_req = ^{req.aw.id, req.ar.id, req.aw.user, req.w.user, req.ar.user}; \
    assign rsp.aw_ready = pfx``awready[pfx``k];                                 \
    assign rsp.w_ready  = pfx``wready[pfx``k];                                  \
    assign rsp.b.id     = tessera_bus_pkg::id_t'(pfx``bid[pfx``k]);             \
    assign rsp.b.resp   = pfx``bresp[pfx``k];                                   \
    assign rsp.b.user   = '0;                                                   \
    assign rsp.b_valid  = pfx``bvalid[pfx``k];                                  \
    assign rsp.ar_ready = pfx``arready[pfx``k];                                 \
    assign rsp.r.id     = tessera_bus_pkg::id_t'(pfx``rid[pfx``k]);             \
    assign rsp.r.data   = pfx``rdata[pfx``k];                                   \
    assign rsp.r.resp   = pfx``rresp[pfx``k];                                   \
    assign rsp.r.last   = pfx``rlast[pfx``k];                                   \
    assign rsp.r.user   = '0;                                                   \
    assign rsp.r_valid  = pfx``rvalid[pfx``k];                                  \
    assign rsps[pfx``k] = rsp;                                                  \
  end

// manager ports: reqs[k] from the request signals, the response signals from rsps[k]
`define TESSERA_AXI_MST_ARRAY_CONNECT(reqs, rsps, pfx, n, idw)                   \
  for (genvar pfx``k = 0; pfx``k < n; pfx``k++) begin : g_``pfx``port           \
    tessera_bus_pkg::axi_req_t req;                                             \
    tessera_bus_pkg::axi_rsp_t rsp;                                             \
    logic                      unused_rsp;                                      \
    assign req.aw.id    = tessera_bus_pkg::id_t'(pfx``awid[pfx``k]);            \
    assign req.aw.addr  = pfx``awaddr[pfx``k];                                  \
    assign req.aw.len   = pfx``awlen[pfx``k];                                   \
    assign req.aw.size  = pfx``awsize[pfx``k];                                  \
    assign req.aw.burst = pfx``awburst[pfx``k];                                 \
    assign req.aw.cache = pfx``awcache[pfx``k];                                 \
    assign req.aw.prot  = pfx``awprot[pfx``k];                                  \
    assign req.aw.qos   = pfx``awqos[pfx``k];                                   \
    assign req.aw.user  = '0;                                                   \
    assign req.aw_valid = pfx``awvalid[pfx``k];                                 \
    assign req.w.data   = pfx``wdata[pfx``k];                                   \
    assign req.w.strb   = pfx``wstrb[pfx``k];                                   \
    assign req.w.last   = pfx``wlast[pfx``k];                                   \
    assign req.w.user   = '0;                                                   \
    assign req.w_valid  = pfx``wvalid[pfx``k];                                  \
    assign req.b_ready  = pfx``bready[pfx``k];                                  \
    assign req.ar.id    = tessera_bus_pkg::id_t'(pfx``arid[pfx``k]);            \
    assign req.ar.addr  = pfx``araddr[pfx``k];                                  \
    assign req.ar.len   = pfx``arlen[pfx``k];                                   \
    assign req.ar.size  = pfx``arsize[pfx``k];                                  \
    assign req.ar.burst = pfx``arburst[pfx``k];                                 \
    assign req.ar.cache = pfx``arcache[pfx``k];                                 \
    assign req.ar.prot  = pfx``arprot[pfx``k];                                  \
    assign req.ar.qos   = pfx``arqos[pfx``k];                                   \
    assign req.ar.user  = '0;                                                   \
    assign req.ar_valid = pfx``arvalid[pfx``k];                                 \
    assign req.r_ready  = pfx``rready[pfx``k];                                  \
    assign reqs[pfx``k] = req;                                                  \
    assign rsp                  = rsps[pfx``k];                                 \
    assign pfx``awready[pfx``k] = rsp.aw_ready;                                 \
    assign pfx``wready[pfx``k]  = rsp.w_ready;                                  \
    assign pfx``bid[pfx``k]     = rsp.b.id[idw-1:0];                            \
    assign pfx``bresp[pfx``k]   = rsp.b.resp;                                   \
    assign pfx``bvalid[pfx``k]  = rsp.b_valid;                                  \
    assign pfx``arready[pfx``k] = rsp.ar_ready;                                 \
    assign pfx``rid[pfx``k]     = rsp.r.id[idw-1:0];                            \
    assign pfx``rdata[pfx``k]   = rsp.r.data;                                   \
    assign pfx``rresp[pfx``k]   = rsp.r.resp;                                   \
    assign pfx``rlast[pfx``k]   = rsp.r.last;                                   \
    assign pfx``rvalid[pfx``k]  = rsp.r_valid;                                  \
    assign unused_rsp = ^{rsp.b.id, rsp.r.id, rsp.b.user, rsp.r.user};          \
  end

`endif  // TESSERA_BUS_SVH
