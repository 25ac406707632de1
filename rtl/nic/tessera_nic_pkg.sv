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

endpackage
