// Shared definitions of the NIC's RTL units: the RoCE v2 reliable-connection
// opcode table of bsp/include/tessera/roce.h (roce_op_has_*), which headers
// follow the BTH and whether the opcode may carry payload.
package tessera_nic_pkg;

  // RETH (virtual address, R_Key, DMA length): WRITE first/only, READ request
  function automatic logic op_has_reth(logic [7:0] op);
    op_has_reth = op == 8'h06 || op == 8'h0A || op == 8'h0B || op == 8'h0C;
  endfunction

  // AETH (syndrome, MSN): READ response first/last/only, ACK, atomic ACK
  function automatic logic op_has_aeth(logic [7:0] op);
    op_has_aeth = op == 8'h0D || op == 8'h0F || op == 8'h10 || op == 8'h11 || op == 8'h12;
  endfunction

  // ImmDt: SEND and WRITE last/only with immediate
  function automatic logic op_has_immdt(logic [7:0] op);
    op_has_immdt = op == 8'h03 || op == 8'h05 || op == 8'h09 || op == 8'h0B;
  endfunction

  // SEND, WRITE and READ response data packets
  function automatic logic op_has_payload(logic [7:0] op);
    op_has_payload = op <= 8'h0B || (op >= 8'h0D && op <= 8'h10);
  endfunction

  // PSN window classes of a packet (tessera_nic_rx_window)
  localparam logic [2:0] ClsInOrder = 3'd0;
  localparam logic [2:0] ClsOoo     = 3'd1;
  localparam logic [2:0] ClsDup     = 3'd2;
  localparam logic [2:0] ClsDupSack = 3'd3;
  localparam logic [2:0] ClsBeyond  = 3'd4;
  localparam logic [2:0] ClsHoleNak = 3'd5;
  localparam logic [2:0] ClsHole    = 3'd6;

  // QP states (tessera_nic_qp_table, registers)
  localparam logic [2:0] QpReset = 3'd0;
  localparam logic [2:0] QpInit  = 3'd1;
  localparam logic [2:0] QpRtr   = 3'd2;
  localparam logic [2:0] QpRts   = 3'd3;
  localparam logic [2:0] QpError = 3'd4;

  // responder counters (tessera_nic_responder cnt_o), in register order
  localparam int unsigned CntFrames    = 0;   // frames received (every verdict)
  localparam int unsigned CntBytes     = 1;   // payload bytes written to memory
  localparam int unsigned CntPlaced    = 2;   // packets written to memory
  localparam int unsigned CntDropBad   = 3;   // rx_check verdict not OK
  localparam int unsigned CntDropLong  = 4;   // frame longer than the buffer
  localparam int unsigned CntDropQp    = 5;   // no QP with the destination QPN
  localparam int unsigned CntDropState = 6;   // QP not in RTR or RTS
  localparam int unsigned CntDropOp    = 7;   // not an RDMA WRITE opcode
  localparam int unsigned CntDropDup   = 8;   // duplicate PSN (re-acknowledged)
  localparam int unsigned CntDropWin   = 9;   // beyond the 128-PSN window
  localparam int unsigned CntDropSeq   = 10;  // go-back-N: past ePSN
  localparam int unsigned CntNakAccess = 11;  // NAK remote access error sent
  localparam int unsigned CntNakOper   = 12;  // NAK remote operational error sent (AXI error)
  localparam int unsigned CntAcks      = 13;  // ACK frames requested
  localparam int unsigned CntSacks     = 14;  // selective ACKs requested
  localparam int unsigned CntNaks      = 15;  // NAKs requested (sequence and error)
  localparam int unsigned CntMsgs      = 16;  // immediates delivered as messages (sync-object updates)
  localparam int unsigned CntDropImm   = 17;  // out-of-order immediate while another waits on its QP
  localparam int unsigned CntNakInval  = 18;  // NAK invalid request sent (bad sync-object index, misaligned reduce)
  localparam int unsigned CntRdReq     = 19;  // READ requests answered (duplicates included)
  localparam int unsigned CntRdResp    = 20;  // READ response packets sent
  localparam int unsigned CntRdPlaced  = 21;  // READ responses placed for a local requester
  localparam int unsigned CntRdDrop    = 22;  // READ responses dropped (not the one expected)
  localparam int unsigned NumCnt       = 23;

  // AETH syndromes the responder sends
  localparam logic [7:0] SynAck       = 8'h1F;
  localparam logic [7:0] SynNakSeq    = 8'h60;   // also the selective ACK
  localparam logic [7:0] SynNakInval  = 8'h61;   // invalid request (a misaligned reduce WRITE)
  localparam logic [7:0] SynNakAccess = 8'h62;
  localparam logic [7:0] SynNakOper   = 8'h63;

endpackage
