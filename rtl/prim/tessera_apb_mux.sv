// 2:1 APB4 multiplexer: two APB masters (e.g. the system-bus APB bridge and an
// engine's queue manager) share one APB4 slave (the engine's register block).
// A master's transfer is granted as a whole (round robin when both wait); the
// mux drives its own setup and access phases towards the slave, so a master
// that is kept waiting simply sees pready low. Slave-side outputs are
// registered; one transfer takes at least 3 cycles.
module tessera_apb_mux (
  input  logic              clk_i,
  input  logic              rst_ni,
  // masters
  input  logic [1:0]        m_psel_i,
  input  logic [1:0]        m_penable_i,
  input  logic [1:0]        m_pwrite_i,
  input  logic [1:0][2:0]   m_pprot_i,
  input  logic [1:0][15:0]  m_paddr_i,
  input  logic [1:0][31:0]  m_pwdata_i,
  input  logic [1:0][3:0]   m_pstrb_i,
  output logic [1:0]        m_pready_o,
  output logic [31:0]       m_prdata_o,      // shared: valid with the granted master's pready
  output logic [1:0]        m_pslverr_o,
  // slave
  output logic              s_psel_o,
  output logic              s_penable_o,
  output logic              s_pwrite_o,
  output logic [2:0]        s_pprot_o,
  output logic [15:0]       s_paddr_o,
  output logic [31:0]       s_pwdata_o,
  output logic [3:0]        s_pstrb_o,
  input  logic              s_pready_i,
  input  logic [31:0]       s_prdata_i,
  input  logic              s_pslverr_i
);
  typedef enum logic [1:0] {MIdle, MSetup, MAccess} mstate_e;
  mstate_e state_q;
  logic    gnt_q;      // granted master
  logic    last_q;     // last granted master (round robin)
  logic    pick;

  always_comb begin
    // prefer the master that was not served last
    if (m_psel_i[~last_q]) pick = ~last_q;
    else                   pick = last_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= MIdle;
      gnt_q   <= 1'b0;
      last_q  <= 1'b1;
    end else begin
      unique case (state_q)
        MIdle: begin
          if (|m_psel_i) begin
            gnt_q   <= pick;
            last_q  <= pick;
            state_q <= MSetup;
          end
        end
        MSetup:  state_q <= MAccess;
        MAccess: if (s_pready_i) state_q <= MIdle;
        default: state_q <= MIdle;
      endcase
    end
  end

  assign s_psel_o    = (state_q != MIdle);
  assign s_penable_o = (state_q == MAccess);
  assign s_pwrite_o  = m_pwrite_i[gnt_q];
  assign s_pprot_o   = m_pprot_i[gnt_q];
  assign s_paddr_o   = m_paddr_i[gnt_q];
  assign s_pwdata_o  = m_pwdata_i[gnt_q];
  assign s_pstrb_o   = m_pstrb_i[gnt_q];
  assign m_prdata_o  = s_prdata_i;

  always_comb begin
    m_pready_o  = 2'b00;
    m_pslverr_o = 2'b00;
    if (state_q == MAccess && s_pready_i) begin
      m_pready_o[gnt_q]  = 1'b1;
      m_pslverr_o[gnt_q] = s_pslverr_i;
    end
  end

  logic unused;
  assign unused = ^m_penable_i;
endmodule
