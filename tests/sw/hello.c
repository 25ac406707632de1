/* Smallest chip test: printf through picolibc to the UART, then pass. */
#include <stdio.h>
#include "tessera/tessera.h"
#include "tessera/test.h"

int main(void)
{
    printf("hello from the Tessera management core (%s)\n", TESSERA_CONFIG_NAME);
    CHECK_EQ(sysctrl_id(), SYSCTRL_CHIP_ID);
    return 0;
}
