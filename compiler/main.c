#include "segc.h"
int main(void) { return 0; }
