import argparse

from convert import c_to_f


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("value", type=float)
    args = parser.parse_args(argv)
    return str(c_to_f(args.value))


if __name__ == "__main__":
    print(main())
