"""join tokens: one-time QR codes to join a group

Revision ID: 78701a10108d
Revises: c521772577e2
Create Date: 2026-11-24 04:34:19.160460

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "78701a10108d"
down_revision = "c521772577e2"
branch_labels = None
depends_on = None


def upgrade():
    # A new table, no data to move: a single-use invitation into a group (only the
    # token's hash is kept), who made it and who used it.
    op.create_table(
        "join_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("device_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("used_by_device_id", sa.Integer(), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["device_id"], ["devices.id"], name=op.f("fk_join_tokens_device_id_devices"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["group_id"], ["groups.id"], name=op.f("fk_join_tokens_group_id_groups"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["used_by_device_id"],
            ["devices.id"],
            name=op.f("fk_join_tokens_used_by_device_id_devices"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_join_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_join_tokens_token_hash")),
    )
    with op.batch_alter_table("join_tokens", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_join_tokens_group_id"), ["group_id"], unique=False)


def downgrade():
    with op.batch_alter_table("join_tokens", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_join_tokens_group_id"))

    op.drop_table("join_tokens")
