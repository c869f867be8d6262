// The project's configuration header, found only through the database's -I.
#define SCALE 2
