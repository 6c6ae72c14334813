"""python -m trainer.task --train-files gs://... --tpu ..."""
import argparse

from .input_pipeline import make_input
from .model import make_model
from .utils import get_strategy


def run(args):
    strategy = get_strategy(args.tpu)
    train_ds = make_input(args.train_files, strategy, args.batch_size_per_replica)
    eval_ds = make_input(args.eval_files, strategy, args.batch_size_per_replica, training=False)
    model = make_model(strategy, args.num_classes, args.learning_rate)
    model.fit(train_ds, steps_per_epoch=args.steps, epochs=args.epochs, validation_data=eval_ds)
    model.save(args.job_dir)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--train-files", required=True)
    parser.add_argument("--eval-files", required=True)
    parser.add_argument("--tpu", default=None)
    parser.add_argument("--batch-size-per-replica", type=int, default=64)
    parser.add_argument("--num-classes", type=int, default=1000)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--job-dir", default="/tmp/job")
    run(parser.parse_args())


if __name__ == "__main__":
    main()
