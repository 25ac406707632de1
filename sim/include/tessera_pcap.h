/* pcap files for the simulator's NIC links (docs/nic.md "pcap files").
 *
 * Writer: classic pcap, nanosecond timestamps (magic 0xA1B23C4D), link type
 * LINKTYPE_ETHERNET (1), little-endian. Frames are stored as the NIC's MAC
 * client interface carries them: Ethernet header first, NO FCS (the MAC adds
 * and strips it), so Wireshark needs no FCS preference.
 * Reader: classic pcap of link type Ethernet in either byte order with
 * microsecond or nanosecond timestamps (captures from real NICs); frames must
 * not carry an FCS either (a capture taken with FCS has 4 more bytes, which
 * the RoCE parser reads as Ethernet padding after the IPv4 datagram).
 * Plain C; no other dependency.
 */
#ifndef TESSERA_PCAP_H
#define TESSERA_PCAP_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TSIM_PCAP_LINKTYPE_ETHERNET 1u
#define TSIM_PCAP_SNAPLEN           65535u

typedef struct tsim_pcap tsim_pcap_t;

/* Writer: create (truncate) path and write the file header. NULL on error. */
tsim_pcap_t *tsim_pcap_create(const char *path);
/* Append one frame captured at time t_ns (nanoseconds). 0 on success. */
int tsim_pcap_write(tsim_pcap_t *p, uint64_t t_ns, const uint8_t *frame, uint32_t len);

/* Reader: open path and check its header. NULL on error (not pcap, not Ethernet). */
tsim_pcap_t *tsim_pcap_open(const char *path);
/* Next frame: 1 = a frame (len bytes in buf, *orig_len its length on the wire),
 * 0 = end of file, -1 = error (truncated record, frame longer than cap). */
int tsim_pcap_read(tsim_pcap_t *p, uint64_t *t_ns, uint8_t *buf, uint32_t cap, uint32_t *len,
                   uint32_t *orig_len);

/* Frames written or read so far. */
uint64_t tsim_pcap_count(const tsim_pcap_t *p);
/* Close (flushes a writer). Returns 0, or -1 if a write had failed. */
int tsim_pcap_close(tsim_pcap_t *p);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_PCAP_H */
