# ULX3S board (rtl/fpga/ulx3s): sources, top and place-and-route options for mk/fpga.mk.
# FPGA_MGMT=1 (default): the management subsystem alone (tessera_ulx3s_mgmt), the only
# variant that has been through the whole flow; FPGA_MGMT=0: the chip in the ulx3s shape
# (its synthesis in one WebAssembly Yosys process is expected to run out of memory, as
# the chip's generic synthesis does; docs/fpga.md "Missing").
FPGA_TOP          := tessera_ulx3s_top
FPGA_SRCS          = $(RTL_SRCS) rtl/fpga/ulx3s/tessera_ulx3s_mgmt.sv rtl/fpga/ulx3s/tessera_ulx3s_top.sv
FPGA_FREQ_MHZ     := 25
FPGA_NEXTPNR_ARGS := --85k --package CABGA381 --speed 6
FPGA_MGMT         ?= 1
FPGA_VLT          := rtl/fpga/ulx3s/waivers.vlt
