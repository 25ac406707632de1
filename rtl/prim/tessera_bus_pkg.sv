// Tessera bus types: the AXI4, APB and OBI request/response structs of every bus
// flavour of the chip, defined once from the chip configuration (tessera_cfg_pkg).
// Widths are concrete per flavour, not type parameters: the synthesis flow reads
// the RTL with Yosys' read_verilog -sv, which has packed structs but no type
// parameters (docs/fabric.md "Bus types"). A module whose logic is narrower than a
// field (an ID width parameter below the flavour's) uses the low bits and drives
// the others to zero.
//
// Yosys cannot read another package's constants in a package, so the widths below
// are numbers: they must equal the configuration's AxiAddrBits, AxiDataBits and
// AxiIdBits (config/tessera.toml); tessera_top stops elaboration (Verilator and
// Yosys) when they differ.
// The typedef macros come from rtl/prim/tessera_bus.svh, which every build lists
// before this package (mk/rtl.mk PRIM_PKG), so no include path is needed.

package tessera_bus_pkg;

  localparam int unsigned AddrBits = 32;    // tessera_cfg_pkg::AxiAddrBits
  localparam int unsigned DataBits = 256;   // tessera_cfg_pkg::AxiDataBits
  localparam int unsigned StrbBits = DataBits / 8;
  localparam int unsigned UserBits = 1;   // the chip uses no AXI user signals (tied to zero)

  // engine side: the ID each master drives
  localparam int unsigned IdBits     = 5;  // tessera_cfg_pkg::AxiIdBits
  // memory-channel side of a crossbar: {master index, read slot} (64 slots up to 8 masters)
  localparam int unsigned MemIdBits  = IdBits + 5;
  // the host-memory port uses the low HostIdBits of the memory-side ID
  // ({DMA engine, read slot}: 32 slots up to 2 engines)
  localparam int unsigned HostIdBits = IdBits + 2;

  typedef logic [AddrBits-1:0]  addr_t;
  typedef logic [DataBits-1:0]  data_t;
  typedef logic [StrbBits-1:0]  strb_t;
  typedef logic [UserBits-1:0]  user_t;
  typedef logic [IdBits-1:0]    id_t;
  typedef logic [MemIdBits-1:0] mem_id_t;

  // Widths of the request/response structs below. Yosys' read_verilog mis-reads packed
  // arrays of structs, so a module with several ports of a flavour takes a
  // logic [N-1:0][<Flavour>ReqBits-1:0] array and copies each element into a struct
  // variable (docs/fabric.md "Bus types"); Verilator's width lint checks these numbers
  // wherever an element is assigned to a struct.
  localparam int unsigned AxiAxFixBits = 8 + 3 + 2 + 4 + 3 + 4;   // len size burst cache prot qos
  localparam int unsigned AxiWBits     = DataBits + StrbBits + 1 + UserBits;
  localparam int unsigned AxiReqBits    = 2 * (IdBits + AddrBits + AxiAxFixBits + UserBits) + AxiWBits + 5;
  localparam int unsigned AxiRspBits    = (IdBits + 2 + UserBits) + (IdBits + DataBits + 3 + UserBits) + 5;
  // one AXI4 channel payload of the engine flavour (axi_ax_chan_t, axi_r_chan_t): ports
  // that carry a channel apart from its request/response pair (tessera_l2's read-only master)
  localparam int unsigned AxiAxBits     = IdBits + AddrBits + AxiAxFixBits + UserBits;
  localparam int unsigned AxiRBits      = IdBits + DataBits + 3 + UserBits;
  localparam int unsigned AxiMemReqBits = 2 * (MemIdBits + AddrBits + AxiAxFixBits + UserBits) + AxiWBits + 5;
  localparam int unsigned AxiMemRspBits = (MemIdBits + 2 + UserBits) + (MemIdBits + DataBits + 3 + UserBits) + 5;

  // AXI4 of the engines (DMA, MME, TPC, QMAN, core bridge, L2 slices' masters):
  // axi_req_t / axi_rsp_t
  `TESSERA_AXI_TYPEDEF_ALL(axi, addr_t, id_t, data_t, strb_t, user_t)
  // AXI4 on the memory side of a crossbar (HBM channels, host-memory port):
  // axi_mem_req_t / axi_mem_rsp_t
  `TESSERA_AXI_TYPEDEF_ALL(axi_mem, addr_t, mem_id_t, data_t, strb_t, user_t)

  // APB4 of the register blocks: a 16-bit offset in the block's 64 KiB window,
  // 32-bit data: apb_req_t / apb_rsp_t
  typedef logic [15:0] apb_addr_t;
  typedef logic [31:0] reg_data_t;
  typedef logic [3:0]  reg_strb_t;
  `TESSERA_APB_TYPEDEF_ALL(apb, apb_addr_t, reg_data_t, reg_strb_t)
  localparam int unsigned ApbReqBits = 1 + 1 + 1 + 3 + 16 + 32 + 4;  // $bits(apb_req_t)
  localparam int unsigned ApbRspBits = 1 + 32 + 1;                   // $bits(apb_rsp_t)

  // OBI of the management core and the system bus (32-bit address and data):
  // obi_req_t / obi_rsp_t
  typedef logic [31:0] obi_addr_t;
  `TESSERA_OBI_TYPEDEF_ALL(obi, obi_addr_t, reg_data_t, reg_strb_t)
  localparam int unsigned ObiReqBits = 1 + 32 + 1 + 4 + 32;  // $bits(obi_req_t)
  localparam int unsigned ObiRspBits = 1 + 1 + 32 + 1;       // $bits(obi_rsp_t)

endpackage
